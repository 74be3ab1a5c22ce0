/* outbox: requests sent without waiting, retried, spooled; see outbox.h. */
#include "autoconfig.h"

#include "edge/outbox.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "lib/publish.h"
#include "lib/strbuf.h"

/* At most this many transfers at once: a slow receiver never holds back
 * the rest. */
#define MAX_IN_FLIGHT 16

struct outgoing {
	char *method, *url, *what;   /* owned */
	struct curl_slist *headers;  /* owned */
	struct strbuf body;          /* owned */
	char *spool;                 /* owned: its file in the spool, or NULL */
	int tries;
	long long first_ms, due_ms;
	CURL *easy;                  /* while in flight, else NULL */
	char error[CURL_ERROR_SIZE];
};

struct outbox {
	CURLM *multi;
	struct outgoing **q; /* owned, in the order queued */
	size_t n, alloc;
	char *spool_dir;     /* owned, or NULL */
	unsigned long seq;
};

long long outbox_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void free_outgoing(struct outgoing *g)
{
	free(g->method);
	free(g->url);
	free(g->what);
	curl_slist_free_all(g->headers);
	strbuf_release(&g->body);
	free(g->spool);
	free(g);
}

static void push(struct outbox *o, struct outgoing *g)
{
	if (o->n == o->alloc) {
		o->alloc = o->alloc ? o->alloc * 2 : 16;
		o->q = xrealloc(o->q, o->alloc * sizeof *o->q);
	}
	o->q[o->n++] = g;
}

/* --- the spool: one file per request ---
 * "cms-api-outbox 1\n" FIRST_MS "\n" METHOD "\n" URL "\n" WHAT "\n"
 * NHEADERS "\n" each header "\n", then the body. */

static void spool_text(const struct outgoing *g, struct strbuf *out)
{
	size_t n = 0;
	for (const struct curl_slist *h = g->headers; h; h = h->next)
		n++;
	strbuf_addf(out, "cms-api-outbox 1\n%lld\n%s\n%s\n%s\n%zu\n", g->first_ms, g->method, g->url,
	            g->what, n);
	for (const struct curl_slist *h = g->headers; h; h = h->next)
		strbuf_addf(out, "%s\n", h->data);
	strbuf_add(out, g->body.ptr ? g->body.ptr : "", g->body.len);
}

static void spool(struct outbox *o, struct outgoing *g)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	strbuf_addf(&path, "%s/%013lld-%06lu.req", o->spool_dir, g->first_ms, o->seq++ % 1000000);
	spool_text(g, &text);
	if (publish_bytes(path.ptr, text.ptr, text.len, 0600, PUBLISH_SYNC) == 0)
		g->spool = strbuf_detach(&path, NULL);
	else
		log_error("%s cannot be kept in %s (%s): it is lost if the watcher ends before it "
		          "is delivered", g->what, o->spool_dir, strerror(errno));
	strbuf_release(&path);
	strbuf_release(&text);
}

/* The next line of text at *p, copied; NULL at the end. */
static char *next_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	if (!nl)
		return NULL;
	char *line = xstrndup(*p, (size_t)(nl - *p));
	*p = nl + 1;
	return line;
}

static struct outgoing *parse_spooled(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char *lines[6] = {NULL};
	for (int i = 0; i < 6; i++)
		lines[i] = next_line(&p, end);
	struct outgoing *g = NULL;
	if (lines[5] && strcmp(lines[0], "cms-api-outbox 1") == 0) {
		g = xcalloc(1, sizeof *g);
		g->first_ms = strtoll(lines[1], NULL, 10);
		g->method = lines[2];
		g->url = lines[3];
		g->what = lines[4];
		lines[2] = lines[3] = lines[4] = NULL;
		long n = strtol(lines[5], NULL, 10);
		for (long i = 0; i < n; i++) {
			char *h = next_line(&p, end);
			if (!h)
				break;
			g->headers = curl_slist_append(g->headers, h);
			free(h);
		}
		strbuf_add(&g->body, p, (size_t)(end - p));
	}
	for (int i = 0; i < 6; i++)
		free(lines[i]);
	return g;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_request_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 4 && strcmp(e->d_name + n - 4, ".req") == 0;
}

/* Queues again what an earlier watcher left in the spool. */
static void load_spool(struct outbox *o)
{
	struct dirent **names;
	int n = scandir(o->spool_dir, &names, is_request_file, by_name);
	for (int i = 0; i < n; i++) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", o->spool_dir, names[i]->d_name);
		struct strbuf text = STRBUF_INIT;
		struct outgoing *g = strbuf_read_file(&text, path.ptr) == 0
		                             ? parse_spooled(strbuf_str(&text), text.len)
		                             : NULL;
		if (g) {
			g->spool = strbuf_detach(&path, NULL);
			push(o, g);
			log_warning("%s: left undelivered by the last watcher, sent again", g->what);
		}
		strbuf_release(&path);
		strbuf_release(&text);
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

struct outbox *outbox_open(const char *spool_dir)
{
	static bool curl_ready;
	if (!curl_ready) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		curl_ready = true;
	}
	struct outbox *o = xcalloc(1, sizeof *o);
	o->multi = curl_multi_init();
	if (spool_dir) {
		if (mkdir(spool_dir, 0700) != 0 && errno != EEXIST)
			log_error("cannot make %s (%s): webhooks are lost if the watcher ends before "
			          "they are delivered", spool_dir, strerror(errno));
		o->spool_dir = xstrdup(spool_dir);
		load_spool(o);
	}
	return o;
}

static void forget_transfer(struct outbox *o, struct outgoing *g)
{
	if (!g->easy)
		return;
	curl_multi_remove_handle(o->multi, g->easy);
	curl_easy_cleanup(g->easy);
	g->easy = NULL;
}

void outbox_close(struct outbox *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++) {
		forget_transfer(o, o->q[i]);
		free_outgoing(o->q[i]);
	}
	free(o->q);
	curl_multi_cleanup(o->multi);
	free(o->spool_dir);
	free(o);
}

void outbox_add(struct outbox *o, const struct outbox_request *r, long long now_ms)
{
	struct outgoing *g = xcalloc(1, sizeof *g);
	g->method = xstrdup(r->method);
	g->url = xstrdup(r->url);
	g->what = xstrdup(r->what);
	for (size_t i = 0; i < r->nheaders; i++)
		g->headers = curl_slist_append(g->headers, r->headers[i]);
	strbuf_add(&g->body, r->body ? r->body : "", r->len);
	g->first_ms = g->due_ms = now_ms;
	if (r->persist && o->spool_dir)
		spool(o, g);
	push(o, g);
}

static void start(struct outbox *o, struct outgoing *g)
{
	CURL *e = curl_easy_init();
	if (!e)
		return;
	curl_easy_setopt(e, CURLOPT_URL, g->url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, g->method);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, g->headers);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, g->body.ptr ? g->body.ptr : "");
	curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)g->body.len);
	if (g->body.len == 0 && strcmp(g->method, "POST") != 0)
		curl_easy_setopt(e, CURLOPT_NOBODY, 0L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, OUTBOX_TIMEOUT_MS);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 3000L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, g->error);
	curl_easy_setopt(e, CURLOPT_PRIVATE, g);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "cms-api/" PACKAGE_VERSION);
	g->error[0] = '\0';
	g->tries++;
	g->easy = e;
	curl_multi_add_handle(o->multi, e);
}

/* Removes entry i of the queue (delivered or given up). */
static void drop(struct outbox *o, size_t i)
{
	free_outgoing(o->q[i]);
	memmove(o->q + i, o->q + i + 1, (o->n - i - 1) * sizeof *o->q);
	o->n--;
}

/* A request that still fails after a day leaves the queue for the
 * spool's failed/ folder. */
static void give_up(struct outbox *o, struct outgoing *g)
{
	if (!g->spool) {
		log_error("%s to %s failed %d times: given up", g->what, g->url, g->tries);
		return;
	}
	struct strbuf dir = STRBUF_INIT, to = STRBUF_INIT;
	strbuf_addf(&dir, "%s/failed", o->spool_dir);
	mkdir(dir.ptr, 0700);
	const char *base = strrchr(g->spool, '/');
	strbuf_addf(&to, "%s%s", dir.ptr, base ? base : "/request");
	if (rename(g->spool, to.ptr) == 0)
		log_error("%s to %s failed for a day (%d tries): given up, kept in %s", g->what,
		          g->url, g->tries, to.ptr);
	else
		log_error("%s to %s failed for a day (%d tries): given up, left in %s", g->what,
		          g->url, g->tries, g->spool);
	free(g->spool);
	g->spool = NULL;
	strbuf_release(&dir);
	strbuf_release(&to);
}

/* What became of a finished transfer; true when the request is done with
 * (delivered or given up). */
static bool finished(struct outbox *o, struct outgoing *g, CURLcode rc, long long now_ms)
{
	long status = 0;
	curl_easy_getinfo(g->easy, CURLINFO_RESPONSE_CODE, &status);
	forget_transfer(o, g);
	if (rc == CURLE_OK && status >= 200 && status < 300) {
		if (g->spool && unlink(g->spool) != 0)
			log_error("%s was delivered but %s cannot be removed (%s): it will be sent again",
			          g->what, g->spool, strerror(errno));
		log_debug("%s to %s: %ld", g->what, g->url, status);
		return true;
	}
	long long backoff = 1000LL << (g->tries < 20 ? g->tries - 1 : 19);
	if (backoff > OUTBOX_BACKOFF_MAX_MS)
		backoff = OUTBOX_BACKOFF_MAX_MS;
	g->due_ms = now_ms + backoff;
	if (rc == CURLE_OK)
		log_warning("%s to %s answered %ld (try %d): tried again in %lld s", g->what, g->url,
		            status, g->tries, backoff / 1000);
	else
		log_warning("%s to %s failed (try %d: %s): tried again in %lld s", g->what, g->url,
		            g->tries, g->error[0] ? g->error : curl_easy_strerror(rc), backoff / 1000);
	bool over = g->spool ? now_ms - g->first_ms >= OUTBOX_PERSIST_MS
	                     : g->tries >= OUTBOX_TRANSIENT_TRIES;
	if (over)
		give_up(o, g);
	return over;
}

static void collect(struct outbox *o, long long now_ms)
{
	CURLMsg *m;
	int left;
	while ((m = curl_multi_info_read(o->multi, &left)) != NULL) {
		if (m->msg != CURLMSG_DONE)
			continue;
		struct outgoing *g = NULL;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&g);
		CURLcode rc = m->data.result;
		for (size_t i = 0; g && i < o->n; i++) {
			if (o->q[i] == g) {
				if (finished(o, g, rc, now_ms))
					drop(o, i);
				break;
			}
		}
	}
}

static void start_due(struct outbox *o, long long now_ms)
{
	size_t flying = 0;
	for (size_t i = 0; i < o->n; i++)
		flying += o->q[i]->easy != NULL;
	for (size_t i = 0; i < o->n && flying < MAX_IN_FLIGHT; i++) {
		if (!o->q[i]->easy && o->q[i]->due_ms <= now_ms) {
			start(o, o->q[i]);
			flying++;
		}
	}
}

void outbox_run(struct outbox *o, long long now_ms, int wait_ms)
{
	if (!o || o->n == 0)
		return;
	start_due(o, now_ms);
	int running = 0;
	curl_multi_perform(o->multi, &running);
	long long until = now_ms + wait_ms;
	while (running > 0 && outbox_now_ms() < until) {
		int left = (int)(until - outbox_now_ms());
		curl_multi_poll(o->multi, NULL, 0, left > 0 ? left : 0, NULL);
		curl_multi_perform(o->multi, &running);
		collect(o, outbox_now_ms());
	}
	collect(o, outbox_now_ms());
}

size_t outbox_pending(const struct outbox *o)
{
	return o ? o->n : 0;
}
