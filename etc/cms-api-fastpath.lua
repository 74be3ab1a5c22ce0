-- cms-api's static fast path for lighttpd (mod_magnet): answers a GET or
-- HEAD with the file cms-api published for it, if there is one; anything
-- else goes on to cms-api (FastCGI). See lighttpd-cms-api-fastpath.conf.
--
-- It runs for every request under the prefix, so it does as little as it
-- can: a handful of plain string searches, one open, no loop and no table
-- built per request.

-- [cache] public_dir of cms-api.ini.
local public_dir = "/var/cache/cms-api/public"

local attr = lighty.r.req_attr
local method = attr["request.method"]
if method ~= "GET" and method ~= "HEAD" then
  return 0
end

-- The request target as the client sent it (not decoded, not
-- normalised): the name cms-api published under.
local target = attr["request.orig-uri"] or ""
local path, query = target, ""
local mark = target:find("?", 1, true)
if mark then
  path, query = target:sub(1, mark - 1), target:sub(mark + 1)
end
-- Only the paths cms-api publishes: '/' and A-Z a-z 0-9 - . _ ~, no empty
-- segment ("//") and none starting with '.' ("/.": ".", "..", hidden
-- files). Never a way out of the directory through the query: a published
-- query holds no '/', no ".." (and no '#').
if not path:find("^/[A-Za-z0-9._~/%-]*$") or path:find("//", 1, true)
    or path:find("/.", 1, true) or query:find("[/#]") or query:find("..", 1, true) then
  return 0
end

-- Handed to lighttpd, which opens the file once, takes its size from that
-- descriptor and sends it from there (as it sends any static file: no
-- copy through Lua). What opens is whole: cms-api replaces a published
-- file by a rename, never in place. The stat first keeps a miss (an answer
-- not published yet, the common case) out of lighttpd's error log; when
-- the file goes between the two (the watcher removes the files of an old
-- cache generation once it swapped current), nothing was added and the
-- request goes on to cms-api: never an empty 200.
local file = public_dir .. "/current" .. path .. "@" .. query .. ".json"
local st = lighty.c.stat(file)
if not st or not st.is_file then
  return 0
end
local body = lighty.r.resp_body
body:add({ { filename = file } })
if body.bytes_in == 0 and st.st_size ~= 0 then
  return 0
end
lighty.r.resp_header["Content-Type"] = "application/json"
return 200
