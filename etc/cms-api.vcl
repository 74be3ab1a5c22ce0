# cms-api behind Varnish (7.x) with varnish-modules' xkey: answers kept
# until an edit purges them, by the tags cms-api names.
#
#   apt-get install varnish varnish-modules
#   cp etc/cms-api.vcl /etc/varnish/default.vcl   # or include it
#
# and in cms-api.ini (of every machine behind this Varnish):
#
#   [edge]
#   tags_header = xkey                  ; or Surrogate-Key (copied below)
#   varnish = http://127.0.0.1:6081     ; where the watcher sends its PURGEs
#
# Each answer carries its tags (an entry, its collection's lists, what it
# relates to: man cms-api, SCALING OUT); when the site changes the watcher
# of each machine sends "PURGE /" with an "xkey-purge: tag tag ..." header,
# which removes exactly the answers naming one of those tags. The purge is
# refused to anyone but the purgers below.

vcl 4.1;

import xkey;

# The web server in front of cms-api's workers (lighttpd, Apache, nginx);
# one backend per machine, with a director, when there are several.
backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

# Who may purge: the machines running cms-api's watcher.
acl purgers {
	"127.0.0.1";
	"::1";
}

sub vcl_recv {
	if (req.method == "PURGE") {
		if (client.ip !~ purgers) {
			return (synth(403, "Forbidden"));
		}
		if (!req.http.xkey-purge) {
			return (synth(400, "No xkey-purge header"));
		}
		set req.http.n-gone = xkey.purge(req.http.xkey-purge);
		return (synth(200, "Purged " + req.http.n-gone));
	}
	# An answer for a token is the token holder's: never shared.
	if (req.http.Authorization) {
		return (pass);
	}
}

sub vcl_backend_response {
	# xkey reads the xkey header; cms-api may name its tags for a CDN
	# beyond this Varnish instead.
	if (beresp.http.Surrogate-Key && !beresp.http.xkey) {
		set beresp.http.xkey = beresp.http.Surrogate-Key;
	}
}

sub vcl_deliver {
	# The tags are for the caches, not for the clients.
	unset resp.http.xkey;
	unset resp.http.Surrogate-Key;
}
