/*
 * listen: the FastCGI listening socket of a pool (cms-api -n, pool.h),
 * which its workers accept on as fd 0, like every FastCGI program.
 *
 * Either it is handed over already listening on fd 0 (spawn-fcgi without
 * -F, systemd with StandardInput=socket, or systemd's LISTEN_FDS=1 on
 * fd 3, which is moved to fd 0), or --listen names one to make:
 *
 *   PATH (anything with a '/')  a unix socket, mode 0660 whatever the
 *                               umask; a stale socket file nobody listens
 *                               on is replaced, anything else there is an
 *                               error; removed when the pool exits
 *   HOST:PORT, [V6ADDR]:PORT    TCP on that address
 *   :PORT or PORT               TCP on 127.0.0.1
 */
#ifndef CMS_API_LISTEN_H
#define CMS_API_LISTEN_H

#include <stdbool.h>
#include <sys/types.h>
#include <sys/un.h>

#define LISTEN_ERR_LEN 512

enum listen_kind { LISTEN_UNIX, LISTEN_TCP };

struct listen_spec {
	enum listen_kind kind;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* LISTEN_UNIX */
	char host[256];  /* LISTEN_TCP: a name or an address, without brackets */
	char port[6];    /* LISTEN_TCP: 1 to 65535 */
	dev_t dev;       /* LISTEN_UNIX, once made: the socket file's identity, */
	ino_t ino;       /* so that only our own file is removed (an inode */
	long long ctime_ns; /* number may be reused: its change time too) */
};

/* Parses a --listen value. Returns 0, or -1 with why in err. */
int listen_parse(const char *text, struct listen_spec *out, char err[LISTEN_ERR_LEN]);

/* Makes the socket spec names, listening, at fd 0. Returns 0, or -1 with
 * why in err. */
int listen_open(struct listen_spec *spec, char err[LISTEN_ERR_LEN]);

/* Removes the unix socket file listen_open made, if it is still that file. */
void listen_remove(const struct listen_spec *spec);

/* Whether fd 0 is a listening socket, after moving systemd's LISTEN_FDS
 * socket there when it names one for this process. */
bool listen_inherited(void);

/* Points fd 1 and 2 at /dev/null when they are a listening socket (systemd
 * makes them the socket too with StandardInput=socket unless told
 * otherwise): nothing is to be written there. */
void listen_detach_stdio(void);

#endif
