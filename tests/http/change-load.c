/*
 * change-load: several writers edit entries of a site while several
 * checkers ask for them through a web server, and every answer is checked:
 *
 *  - never torn: each answer is a 200 whose title and body are of one
 *    version of the file, whole (the title's version is the body's, and
 *    the body ends with its last word), whatever the writers do: they
 *    rewrite a file in place (truncate, write half, pause, write the
 *    rest) or by a rename;
 *  - never un-seen: once a request was answered with version v of an
 *    entry, no request that started after that answer gets an older one,
 *    whichever checker (and worker) it is.
 *
 * Usage: change-load PORT FOLDER COLLECTION ENTRIES SECONDS WRITERS CHECKERS
 * The entries are FOLDER/e<k>.md (k from 0), id load-<k>, of the
 * collection COLLECTION, there at version 1 (entry_text) and served
 * before it starts. Prints what it saw and exits 0 when nothing was torn
 * and nothing went back, 1 otherwise. --write FOLDER K V writes version V
 * of entry K (the test makes the first versions with it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One answer a checker got. */
struct seen {
	int entry;
	int version;      /* -1: not a whole answer */
	long long start;  /* ns when the request was sent */
	long long end;    /* ns when the whole answer had come */
};

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void pause_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* --- writers --- */

static void entry_path(const char *folder, int k, char *out, size_t len)
{
	snprintf(out, len, "%s/e%d.md", folder, k);
}

/* The file of version v of entry k: its title and its body say v; the
 * body ends with END. */
static int entry_text(int k, int v, char *out, size_t len)
{
	int n = snprintf(out, len, "---\nid: load-%d\ntitle: 'v%d load-%d'\n---\nversion %d ", k, v,
	                 k, v);
	for (int i = 0; i < 40 && n < (int)len - 64; i++)
		n += snprintf(out + n, len - (size_t)n, "word%d-%d ", v, i);
	n += snprintf(out + n, len - (size_t)n, "END\n");
	return n;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Version v of entry k: in place (truncated, half written, a pause, the
 * rest), or written aside and renamed over it. */
static void write_entry(const char *folder, int k, int v, bool in_place)
{
	char path[4096], tmp[4200], text[4096];
	entry_path(folder, k, path, sizeof path);
	int n = entry_text(k, v, text, sizeof text);
	if (in_place) {
		int fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0644);
		if (fd < 0)
			return;
		write_all(fd, text, (size_t)n / 2);
		pause_ms(1 + rand() % 30);
		write_all(fd, text + n / 2, (size_t)(n - n / 2));
		close(fd);
		return;
	}
	snprintf(tmp, sizeof tmp, "%s/.e%d.tmp", folder, k);
	int fd = open(tmp, O_WRONLY | O_TRUNC | O_CREAT, 0644);
	if (fd < 0)
		return;
	write_all(fd, text, (size_t)n);
	close(fd);
	rename(tmp, path);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Writer w: edits its entries (k % writers == w) until told to stop. */
static void run_writer(const char *folder, int entries, int w, int writers)
{
	signal(SIGTERM, on_term);
	srand((unsigned)(w * 7919 + 1));
	int *version = calloc((size_t)entries, sizeof *version);
	for (int k = w; k < entries; k += writers)
		version[k] = 1;
	while (!stop) {
		int k = w + writers * (rand() % ((entries - w + writers - 1) / writers));
		if (k >= entries)
			continue;
		write_entry(folder, k, ++version[k], rand() % 4 != 0);
		pause_ms(5 + rand() % 40);
	}
	free(version);
	_exit(0);
}

/* --- checkers --- */

/* GET path on 127.0.0.1:port; the answer's status and body in out. */
static int get(int port, const char *path, char *out, size_t len, int *status)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	char req[512];
	int n = snprintf(req, sizeof req,
	                 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path,
	                 port);
	write_all(fd, req, (size_t)n);
	size_t got = 0;
	for (;;) {
		ssize_t r = read(fd, out + got, len - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == len - 1)
			break;
	}
	close(fd);
	out[got] = '\0';
	*status = 0;
	sscanf(out, "HTTP/1.%*d %d", status);
	return 0;
}

/* The version an answer for entry k holds, whole; -1 when it is not a
 * 200 of one version of the file, whole. */
static int version_of(const char *answer, int status, int k)
{
	if (status != 200)
		return -1;
	char want[64];
	snprintf(want, sizeof want, " load-%d\"", k);
	const char *title = strstr(answer, "\"title\":\"v");
	int tv, bv;
	if (!title || sscanf(title, "\"title\":\"v%d", &tv) != 1 || !strstr(title, want))
		return -1;
	const char *body = strstr(answer, "version ");
	if (!body || sscanf(body, "version %d", &bv) != 1 || bv != tv || !strstr(body, " END"))
		return -1;
	char last[64];
	snprintf(last, sizeof last, "word%d-39 END", tv);
	return strstr(body, last) ? tv : -1;
}

/* Checker c: asks for random entries until the deadline; what it saw
 * goes to fd. */
static void run_checker(int port, const char *collection, int entries, int c, long long deadline,
                        int fd)
{
	srand((unsigned)(c * 104729 + 3));
	char answer[65536], path[256];
	while (now_ns() < deadline) {
		struct seen s;
		s.entry = rand() % entries;
		snprintf(path, sizeof path, "/api/collections/%s/entries/load-%d", collection, s.entry);
		int status;
		s.start = now_ns();
		if (get(port, path, answer, sizeof answer, &status) != 0)
			status = 0;
		s.end = now_ns();
		s.version = version_of(answer, status, s.entry);
		if (getenv("CHANGE_LOAD_VERBOSE") && rand() % 500 == 0)
			fprintf(stderr, "checker %d: load-%d v%d %.80s\n", c, s.entry, s.version, answer);
		if (s.version < 0)
			fprintf(stderr, "change-load: torn or failed answer for load-%d: %s\n", s.entry,
			        answer);
		write_all(fd, (const char *)&s, sizeof s);
	}
	_exit(0);
}

/* --- the verdict --- */

static int by_end(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	return (x->entry != y->entry) ? (x->entry > y->entry) - (x->entry < y->entry)
	                              : (x->end > y->end) - (x->end < y->end);
}

static int by_start(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	return (x->entry != y->entry) ? (x->entry > y->entry) - (x->entry < y->entry)
	                              : (x->start > y->start) - (x->start < y->start);
}

/* Answers that went back: for each, an answer of the same entry ended
 * before it started with a later version. */
static long went_back(struct seen *all, size_t n)
{
	struct seen *ends = malloc(n * sizeof *ends);
	memcpy(ends, all, n * sizeof *ends);
	qsort(ends, n, sizeof *ends, by_end);
	qsort(all, n, sizeof *all, by_start);
	long back = 0;
	size_t j = 0;
	int best = 0, entry = -1;
	for (size_t i = 0; i < n; i++) {
		if (all[i].entry != entry) {
			entry = all[i].entry;
			best = 0;
			while (j < n && ends[j].entry < entry)
				j++;
		}
		while (j < n && ends[j].entry == entry && ends[j].end < all[i].start) {
			best = ends[j].version > best ? ends[j].version : best;
			j++;
		}
		if (all[i].version >= 0 && all[i].version < best) {
			back++;
			fprintf(stderr, "change-load: load-%d went back from version %d to %d\n", entry,
			        best, all[i].version);
		}
	}
	free(ends);
	return back;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--write") == 0) {
		write_entry(argv[2], atoi(argv[3]), atoi(argv[4]), false);
		return 0;
	}
	if (argc != 8) {
		fprintf(stderr, "usage: change-load PORT FOLDER COLLECTION ENTRIES SECONDS WRITERS "
		                "CHECKERS\n       change-load --write FOLDER K V\n");
		return 2;
	}
	int port = atoi(argv[1]), entries = atoi(argv[4]), seconds = atoi(argv[5]);
	int writers = atoi(argv[6]), checkers = atoi(argv[7]);
	const char *folder = argv[2], *collection = argv[3];
	if (entries < writers || writers < 1 || checkers < 1 || seconds < 1)
		return 2;
	pid_t *pids = calloc((size_t)(writers + checkers), sizeof *pids);
	for (int w = 0; w < writers; w++)
		if ((pids[w] = fork()) == 0)
			run_writer(folder, entries, w, writers);
	/* Made after the writers: the checkers alone hold its writing end. */
	int pipefd[2];
	if (pipe(pipefd) != 0)
		return 2;
	long long deadline = now_ns() + (long long)seconds * 1000000000LL;
	for (int c = 0; c < checkers; c++)
		if ((pids[writers + c] = fork()) == 0)
			run_checker(port, collection, entries, c, deadline, pipefd[1]);
	close(pipefd[1]);
	size_t n = 0, cap = 1024;
	struct seen *all = malloc(cap * sizeof *all);
	struct seen s;
	while (read(pipefd[0], &s, sizeof s) == (ssize_t)sizeof s) {
		if (n == cap)
			all = realloc(all, (cap *= 2) * sizeof *all);
		all[n++] = s;
	}
	for (int w = 0; w < writers; w++)
		kill(pids[w], SIGTERM);
	for (int i = 0; i < writers + checkers; i++)
		waitpid(pids[i], NULL, 0);
	long torn = 0, edits = 0;
	for (size_t i = 0; i < n; i++) {
		torn += all[i].version < 0;
		edits += all[i].version > 1;
	}
	long back = went_back(all, n);
	printf("change-load: %zu answers, %ld of edited entries, %ld torn or failed, %ld went back\n",
	       n, edits, torn, back);
	free(all);
	free(pids);
	/* Edits that never show would make the rest mean nothing. */
	return torn == 0 && back == 0 && edits > 0 ? 0 : 1;
}
