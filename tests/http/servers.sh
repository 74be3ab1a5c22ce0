# servers.sh: the configurations that put cms-api behind Apache (mod_fcgid)
# and nginx (spawn-fcgi's workers), made from the snippets shipped in etc/
# with only paths, the port, the URL prefix and the worker count
# substituted: what is shipped is what the HTTP tests (lib.sh) and
# bench/run run. Each is a configuration of its own, on 127.0.0.1, with
# Debian's binaries and modules; /etc/apache2, /etc/nginx and their
# services are never used. Sourced; defines functions only. Needs $TOP
# (the source tree).

APACHE_MODULES=/usr/lib/apache2/modules

# FASTPATH_DIR: when set, the [cache] public_dir of the config served:
# the next server also gets the static fast path's snippet as shipped
# (etc/apache-cms-api-fastpath.conf beside apache-cms-api.conf,
# etc/nginx-cms-api-fastpath.conf instead of nginx-cms-api.conf,
# etc/lighttpd-cms-api-fastpath.conf and etc/cms-api-fastpath.lua), with
# public_dir and the prefix substituted.
FASTPATH_DIR=${FASTPATH_DIR:-}

# apache_conf DIR PORT DOCROOT BIN INI PREFIX PROCS USER: prints an
# httpd.conf whose files (pid, logs, mod_fcgid's sockets) are in DIR.
# etc/apache-cms-api.conf goes in at server level, as a2enconf puts it,
# and a virtual host like Debian's 000-default.conf comes after it, with
# the one line the snippet asks each virtual host for. USER: who the
# children (and so the workers) run as when Apache starts as root; empty
# when it does not. Lines printed after it (FcgidInitialEnv, ...) still
# reach the virtual host.
apache_conf() {
	local dir=$1 port=$2 docroot=$3 bin=$4 ini=$5 prefix=$6 procs=$7 user=$8
	cat <<CONF
ServerRoot $dir
DefaultRuntimeDir $dir
PidFile $dir/httpd.pid
Mutex file:$dir default
Listen 127.0.0.1:$port
ServerName 127.0.0.1
ErrorLog $dir/error.log
LogLevel notice
${user:+User $user}
${user:+Group $(id -gn "$user")}
LoadModule mpm_event_module $APACHE_MODULES/mod_mpm_event.so
LoadModule authz_core_module $APACHE_MODULES/mod_authz_core.so
LoadModule alias_module $APACHE_MODULES/mod_alias.so
LoadModule mime_module $APACHE_MODULES/mod_mime.so
LoadModule env_module $APACHE_MODULES/mod_env.so
LoadModule rewrite_module $APACHE_MODULES/mod_rewrite.so
LoadModule fcgid_module $APACHE_MODULES/mod_fcgid.so
TypesConfig /dev/null
DocumentRoot $docroot
FcgidIPCDir $dir/fcgid
FcgidProcessTableFile $dir/fcgid/shm
CONF
	sed -e "s#/usr/sbin/cms-api#$bin#g" -e "s#/etc/cms-api.ini#$ini#g" \
		-e "s#^\( *Alias\) /api #\1 $prefix #" -e "s#^\( *<Location\) /api>#\1 $prefix>#" \
		-e "s#^\( *FcgidMaxProcessesPerClass\) 4#\1 $procs#" \
		"$TOP/etc/apache-cms-api.conf"
	[ -n "$FASTPATH_DIR" ] &&
		sed -e "s#/var/cache/cms-api/public#$FASTPATH_DIR#g" \
			-e "s#^\( *RewriteRule\) ^/api(#\1 ^${prefix%/}(#" \
			"$TOP/etc/apache-cms-api-fastpath.conf"
	cat <<CONF
<VirtualHost 127.0.0.1:$port>
	DocumentRoot $docroot
	AllowEncodedSlashes NoDecode
${FASTPATH_DIR:+	RewriteEngine On}
</VirtualHost>
CONF
}

# start_apache_in DIR USER: starts Apache with DIR/httpd.conf in the
# foreground (in the background of the caller, whose $! it is), output in
# DIR/out. USER as for apache_conf: mod_fcgid's process manager runs as
# that user and makes its sockets in DIR/fcgid.
start_apache_in() {
	mkdir -p "$1/fcgid"
	[ -n "$2" ] && chown "$2" "$1/fcgid"
	rm -f "$1/httpd.pid"
	/usr/sbin/apache2 -d "$1" -f "$1/httpd.conf" -DFOREGROUND >"$1/out" 2>&1 &
}

# nginx_conf DIR PORT DOCROOT SOCKET PREFIX WORKER_PROCESSES USER: prints
# an nginx.conf whose files (pid, log, temporary files) are in DIR, with
# etc/nginx-cms-api.conf inside http { } as conf.d/ puts it, talking to
# the workers on SOCKET. Debian's fastcgi_params is copied into DIR (the
# snippet includes it). USER: nginx's workers' user when nginx starts as
# root (it must reach SOCKET); empty when it does not. $NGINX_EXTRA_CONF,
# when set, goes in http { } before the snippet.
nginx_conf() {
	local dir=$1 port=$2 docroot=$3 socket=$4 prefix=$5 processes=$6 user=$7
	local snippet=$TOP/etc/nginx-cms-api.conf
	[ -n "$FASTPATH_DIR" ] && snippet=$TOP/etc/nginx-cms-api-fastpath.conf
	mkdir -p "$dir/temp"
	cp /etc/nginx/fastcgi_params "$dir/"
	[ -n "$user" ] && chown -R "$user" "$dir/temp"
	cat <<CONF
${user:+user $user $(id -gn "$user");}
worker_processes $processes;
pcre_jit on;
pid $dir/nginx.pid;
error_log $dir/error.log notice;
events { worker_connections 512; }
http {
	access_log off;
	client_body_temp_path $dir/temp/body;
	fastcgi_temp_path $dir/temp/fastcgi;
	proxy_temp_path $dir/temp/proxy;
	uwsgi_temp_path $dir/temp/uwsgi;
	scgi_temp_path $dir/temp/scgi;
	root $docroot;
${NGINX_EXTRA_CONF:-}
CONF
	sed -e "s#unix:/run/cms-api/cms-api.sock#unix:$socket#" \
		-e "s#^\( *listen\) 80;#\1 127.0.0.1:$port;#" -e "/^ *listen \[::\]:80;/d" \
		-e "s#^\( *location ^~\) /api/ {#\1 ${prefix%/}/ {#" \
		-e "s#^\( *root\) /var/cache/cms-api/public;#\1 $FASTPATH_DIR;#" \
		"$snippet"
	echo "}"
}

# lighttpd_fastpath_conf DIR PREFIX: with FASTPATH_DIR set, copies
# etc/cms-api-fastpath.lua into DIR with public_dir set, and prints
# etc/lighttpd-cms-api-fastpath.conf with that script and PREFIX; prints
# nothing otherwise.
lighttpd_fastpath_conf() {
	local dir=$1 prefix=$2
	[ -n "$FASTPATH_DIR" ] || return 0
	sed -e "s#^local public_dir = .*#local public_dir = \"$FASTPATH_DIR\"#" \
		"$TOP/etc/cms-api-fastpath.lua" >"$dir/cms-api-fastpath.lua"
	sed -e "s#/etc/lighttpd/cms-api-fastpath.lua#$dir/cms-api-fastpath.lua#" \
		-e "s#=^ \"/api/\"#=^ \"${prefix%/}/\"#" \
		"$TOP/etc/lighttpd-cms-api-fastpath.conf"
}

# start_nginx_in DIR: starts nginx with DIR/nginx.conf in the foreground
# (in the background of the caller, whose $! it is), output in DIR/out.
start_nginx_in() {
	rm -f "$1/nginx.pid"
	/usr/sbin/nginx -p "$1" -c "$1/nginx.conf" -g 'daemon off;' >"$1/out" 2>&1 &
}

# spawn_workers SOCKET PROCS PIDFILE SOCKET_USER WORKER_USER BIN [ENV=VALUE]...:
# spawn-fcgi forks PROCS workers of BIN on SOCKET (mode 0660, owned by
# SOCKET_USER when set, for nginx's workers) as WORKER_USER when set, with
# the environment given, and leaves; their pids go to PIDFILE. The
# workers' standard error is /dev/null (spawn-fcgi's fork mode).
spawn_workers() {
	local socket=$1 procs=$2 pidfile=$3 socket_user=$4 worker_user=$5 bin=$6 opts=()
	shift 6
	[ -n "$socket_user" ] && opts+=(-U "$socket_user" -G "$(id -gn "$socket_user")")
	[ -n "$worker_user" ] && opts+=(-u "$worker_user" -g "$(id -gn "$worker_user")")
	rm -f "$pidfile"
	env "$@" spawn-fcgi -s "$socket" -M 0660 "${opts[@]}" -F "$procs" -P "$pidfile" -- "$bin"
}

# spawned_workers PIDFILE: the pids in spawn-fcgi's pid file that still
# run. A worker that ended stays a zombie until init reaps it (spawn-fcgi,
# its parent, has left), so its state is read, not only whether its pid
# exists. (spawn-fcgi ends the file without a newline.)
spawned_workers() {
	local pid state
	[ -n "$1" ] && [ -f "$1" ] || return 0
	while read -r pid || [ -n "$pid" ]; do
		state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
		[ -n "$state" ] && [ "$state" != Z ] && echo "$pid"
	done <"$1"
}

# stop_spawned_workers PIDFILE: SIGTERM to each (a worker finishes the
# request it is answering, then exits), and up to 5 s for them to end.
stop_spawned_workers() {
	local w
	w=$(spawned_workers "$1")
	[ -n "$w" ] || return 0
	# shellcheck disable=SC2086
	kill $w 2>/dev/null
	for _ in $(seq 1 50); do
		[ -n "$(spawned_workers "$1")" ] || return 0
		sleep 0.1
	done
}
