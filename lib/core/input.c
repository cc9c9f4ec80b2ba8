/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Inputs read once, with a bound on waiting (see input.h). */
#define _GNU_SOURCE		/* fopencookie() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input.h"

/* One opened input: the head read ahead (or a whole buffer), then fd. */
struct src {
	int fd;			/* -1: only the head */
	int wait;		/* poll before reading (not a regular file) */
	int timeout_ms;		/* -1: no bound */
	char *head;
	size_t head_len, head_pos;
	int own_head;
	char *iobuf;		/* the stream's buffer (big reads, few calls) */
};

/* Dumps run to gigabytes: a read() per 8 KB (a cookie stream's default)
 * costs a third more time than per 256 KB. */
#define IO_BUF (256 * 1024)

int ibu_input_timeout(void)
{
	const char *v = getenv(IBU_INPUT_TIMEOUT_ENV);
	char *end;
	long s;

	if (!v || !*v)
		return IBU_INPUT_TIMEOUT_DEFAULT;
	errno = 0;
	s = strtol(v, &end, 10);
	if (errno || *end || s < 0 || s > INT_MAX / 1000)
		return IBU_INPUT_TIMEOUT_DEFAULT;
	return (int)s;
}

int ibu_input_err(struct ibu_err *e, const char *where, int err)
{
	if (err == ETIMEDOUT)
		return ibu_err_set(e, IBU_EIO,
				   "%s: no data for %d s (a FIFO without a writer?); "
				   IBU_INPUT_TIMEOUT_ENV " sets the bound",
				   where, ibu_input_timeout());
	return ibu_err_set(e, err == ENOMEM ? IBU_ENOMEM : IBU_EIO,
			   "%s: read error: %s", where, strerror(err ? err : EIO));
}

const char *ibu_input_name(const char *path)
{
	return path && strcmp(path, "-") ? path : "(stdin)";
}

/* 0 when fd has data (or its end) to read, -1 with errno ETIMEDOUT when
 * none came within the bound. */
static int wait_data(const struct src *s)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, s->timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

static ssize_t src_read(void *cookie, char *buf, size_t size)
{
	struct src *s = cookie;
	ssize_t n;

	if (s->head_pos < s->head_len) {
		size_t k = s->head_len - s->head_pos;

		k = k < size ? k : size;
		memcpy(buf, s->head + s->head_pos, k);
		s->head_pos += k;
		return (ssize_t)k;
	}
	if (s->fd < 0)
		return 0;
	for (;;) {
		if (s->wait && wait_data(s))
			return -1;
		n = read(s->fd, buf, size);
		if (n >= 0 || (errno != EINTR && errno != EAGAIN))
			return n;
	}
}

static int src_close(void *cookie)
{
	struct src *s = cookie;

	if (s->fd >= 0)
		close(s->fd);
	if (s->own_head)
		free(s->head);
	/* glibc does not touch a buffer it was given after this call */
	free(s->iobuf);
	free(s);
	return 0;
}

static FILE *wrap(struct src *s, struct ibu_err *e)
{
	cookie_io_functions_t io = { .read = src_read, .close = src_close };
	FILE *in = fopencookie(s, "r", io);

	if (!in) {
		src_close(s);
		ibu_err_set(e, IBU_ENOMEM, "out of memory");
		return NULL;
	}
	if (s->fd >= 0 && (s->iobuf = malloc(IO_BUF)))
		setvbuf(in, s->iobuf, _IOFBF, IO_BUF);
	return in;
}

/* The descriptor of path: never blocks on open, refuses a directory. */
static int open_fd(const char *path, int *wait, struct ibu_err *e)
{
	struct stat st;
	int fd, err;

	if (!strcmp(path, "-"))
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = errno;
		if (fd >= 0)
			close(fd);
		ibu_err_set(e, IBU_EIO, "%s: cannot open: %s",
			    ibu_input_name(path), strerror(err));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		ibu_err_set(e, IBU_EIO, "%s: cannot open: %s",
			    ibu_input_name(path), strerror(EISDIR));
		return -1;
	}
	/* O_NONBLOCK only for the open: reads wait in poll() instead (and
	 * standard input's flags, shared with the shell, stay as they are) */
	if (strcmp(path, "-"))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*wait = !S_ISREG(st.st_mode);
	return fd;
}

static struct src *new_src(const char *path, struct ibu_err *e)
{
	struct src *s = calloc(1, sizeof(*s));
	int t = ibu_input_timeout();

	if (!s) {
		ibu_err_set(e, IBU_ENOMEM, "out of memory");
		return NULL;
	}
	s->timeout_ms = t ? t * 1000 : -1;
	s->fd = path ? open_fd(path, &s->wait, e) : -1;
	if (path && s->fd < 0) {
		free(s);
		return NULL;
	}
	return s;
}

FILE *ibu_input_open(const char *path, struct ibu_err *e)
{
	struct src *s = new_src(path, e);

	return s ? wrap(s, e) : NULL;
}

/* Reads up to peek bytes of s->fd into s->head. */
static int read_head(struct src *s, const char *path, size_t peek,
		     struct ibu_err *e)
{
	ssize_t n = 1;

	s->head = malloc(peek ? peek : 1);
	s->own_head = 1;
	if (!s->head)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	while (s->head_len < peek && n > 0) {
		if (s->wait && wait_data(s))
			n = -1;
		else
			n = read(s->fd, s->head + s->head_len, peek - s->head_len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			n = 1;
		else if (n > 0)
			s->head_len += (size_t)n;
	}
	if (n < 0)
		return ibu_input_err(e, ibu_input_name(path), errno);
	return IBU_OK;
}

FILE *ibu_input_open_peek(const char *path, size_t peek, const char **head,
			  size_t *head_len, struct ibu_err *e)
{
	struct src *s = new_src(path, e);

	if (!s)
		return NULL;
	if (read_head(s, path, peek, e)) {
		src_close(s);
		return NULL;
	}
	*head = s->head;
	*head_len = s->head_len;
	return wrap(s, e);
}

FILE *ibu_input_mem(const char *buf, size_t len, struct ibu_err *e)
{
	struct src *s = new_src(NULL, e);

	if (!s)
		return NULL;
	s->head = (char *)buf;	/* read only: src_read copies out of it */
	s->head_len = len;
	return wrap(s, e);
}

struct tee {
	FILE *in;
	struct ibu_input_copy *copy;
};

static int keep(struct ibu_input_copy *c, const char *buf, size_t n)
{
	size_t cap = c->cap ? c->cap : 65536;
	char *nb;

	while (cap - c->len <= n) {
		if (cap >= IBU_INPUT_MAX) {
			errno = EFBIG;
			return -1;
		}
		cap *= 2;
	}
	if (cap != c->cap) {
		nb = realloc(c->buf, cap);
		if (!nb) {
			errno = ENOMEM;
			return -1;
		}
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, buf, n);
	c->len += n;
	c->buf[c->len] = '\0';
	return 0;
}

static ssize_t tee_read(void *cookie, char *buf, size_t size)
{
	struct tee *t = cookie;
	size_t n = fread(buf, 1, size, t->in);

	if (!n && ferror(t->in))
		return -1;	/* errno as the inner stream left it */
	return keep(t->copy, buf, n) ? -1 : (ssize_t)n;
}

static int tee_close(void *cookie)
{
	struct tee *t = cookie;

	fclose(t->in);
	free(t);
	return 0;
}

FILE *ibu_input_tee(FILE *in, struct ibu_input_copy *copy, struct ibu_err *e)
{
	cookie_io_functions_t io = { .read = tee_read, .close = tee_close };
	struct tee *t = malloc(sizeof(*t));
	FILE *out = t ? fopencookie(t, "r", io) : NULL;

	if (!out) {
		free(t);
		fclose(in);
		ibu_err_set(e, IBU_ENOMEM, "out of memory");
		return NULL;
	}
	t->in = in;
	t->copy = copy;
	return out;
}

int ibu_input_slurp(FILE *in, const char *name, size_t max, char **buf,
		    size_t *len, struct ibu_err *e)
{
	size_t cap = max < 65536 ? max : 65536, n = 0, k;
	char *b = malloc(cap + 1), *nb;

	*buf = NULL;
	*len = 0;
	errno = 0;
	while (b && (k = fread(b + n, 1, cap - n, in)) > 0) {
		n += k;
		if (n < cap)
			continue;
		if (cap >= max) {
			if (fgetc(in) == EOF)
				break;	/* exactly max bytes (or an error, below) */
			free(b);
			return ibu_err_set(e, IBU_EIO, "%s: larger than %zu bytes",
					   name, max);
		}
		cap = cap * 2 < max ? cap * 2 : max;
		nb = realloc(b, cap + 1);
		if (!nb)
			free(b);
		b = nb;
	}
	if (!b)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (ferror(in)) {
		int err = errno;

		free(b);
		return ibu_input_err(e, name, err);
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return IBU_OK;
}

int ibu_input_read_all(const char *path, size_t max, char **buf,
		       size_t *len, struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	*buf = NULL;
	*len = 0;
	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_input_slurp(in, ibu_input_name(path), max, buf, len, e);
	fclose(in);
	return rc;
}
