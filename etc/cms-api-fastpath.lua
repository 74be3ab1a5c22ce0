-- cms-api's static fast path for lighttpd (mod_magnet): answers a GET or
-- HEAD with the file cms-api published for it, if there is one; anything
-- else goes on to cms-api (FastCGI). See lighttpd-cms-api-fastpath.conf.

-- [cache] public_dir of cms-api.ini.
local public_dir = "/var/cache/cms-api/public"

local r = lighty.r
local method = r.req_attr["request.method"]
if method ~= "GET" and method ~= "HEAD" then
  return 0
end

-- The request target as the client sent it (not decoded, not
-- normalised): the name cms-api published under.
local target = r.req_attr["request.orig-uri"] or ""
local path, query = target:match("^([^?#]*)%??([^#]*)$")
if not path or path:sub(1, 1) ~= "/" then
  return 0
end
-- Segments of A-Z a-z 0-9 - . _ ~, none empty (but a trailing one) and
-- none starting with '.': the only paths cms-api publishes.
local rest = path:sub(2)
for segment, slash in rest:gmatch("([^/]*)(/?)") do
  if segment == "" then
    if slash == "/" then
      return 0
    end
  elseif not segment:match("^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$") then
    return 0
  end
end
-- Never a way out of the directory through the query: a published
-- query holds no '/' and no "..".
if query:find("/", 1, true) or query:find("..", 1, true) then
  return 0
end

-- Opened once and read here: a file looked up, then opened again by its
-- name, may be gone in between (the watcher swaps current when the site
-- changes), which would answer an empty 200. What opens is whole: cms-api
-- replaces a published file by a rename, never in place.
local file = public_dir .. "/current" .. path .. "@" .. query .. ".json"
local f = io.open(file, "rb")
if not f then
  return 0
end
local body = f:read("a")
f:close()
if not body then
  return 0
end
r.resp_header["Content-Type"] = "application/json"
r.resp_body:set({ body })
return 200
