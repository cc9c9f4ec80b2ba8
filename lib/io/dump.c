/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * LFT dump reader (dump_lfts / dump_fts / ibroute and opensm-lfts.dump) and
 * writer (dump_lfts format). See dump.h for the formats.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input.h"
#include "dump.h"
#include "lineio.h"
#include "lidmap.h"
#include "num.h"

#define IBU_DUMP_MAX_LMC 7

/* ------------------------------------------------------------ parsing */

struct parser {
	const char *name;
	struct ibu_dump *d;
	struct ibu_err *e;
	int cap_switches;
	int cap_ports;
	uint32_t cap_lids;	/* entries of d->owner and claim_line */
	int *claim_line;	/* [lid] line of the first owner claim */
	uint32_t *lo, *hi;	/* [port] lowest/highest claimed LID */
	uint32_t *nclaims;	/* [port] distinct LIDs claimed */
	int *set_line;		/* [port] line of the explicit set, 0 none */
	int *hash;		/* port GUID -> port index, open addressing */
	uint32_t hash_size;
	/* the open table */
	int cur;		/* switch index, -1 when none is open */
	uint32_t start;		/* first LID of the open table's header range */
	uint32_t row_cap;	/* entries allocated in the open table */
	int osm;		/* the open table is in opensm-lfts.dump format */
	long entries;		/* entry lines of the open table */
	/* progress: position in the input, its size when it is a file */
	const struct ibu_progress *pr;
	FILE *in;
	off_t size;
	/*
	 * The destination text of the first entry line of each LID: a later
	 * table's line with the same text claims exactly what the first did
	 * (claim() is idempotent), so it is compared, not parsed again.
	 */
	uint32_t seen_cap;	/* entries of the three arrays below */
	uint32_t *seen_off;	/* [lid] offset of the text in seen_pool */
	uint32_t *seen_len;	/* [lid] its length + 1, 0 = none yet */
	uint8_t *seen_valid;	/* [lid] the line routes (not "illegal") */
	char *seen_pool;
	size_t pool_len, pool_cap;
	long total_entries;	/* entry lines of all tables */
	int trailer;		/* the open table's trailer was seen */
};

static int perr(struct parser *p, int line, const char *what,
		const char *text)
{
	return ibu_err_set(p->e, IBU_EPARSE, "%s:%d: %s%s%s%s", p->name, line,
			   what, text ? ": '" : "", text ? text : "",
			   text ? "'" : "");
}

static int nomem(struct parser *p)
{
	return ibu_err_set(p->e, IBU_ENOMEM, "out of memory");
}

static const char *skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Makes d->owner and claim_line cover LID lid. */
static int grow_lids(struct parser *p, uint32_t lid)
{
	uint32_t cap = p->cap_lids ? p->cap_lids : 256, i;
	int32_t *o;
	int *cl;

	if (lid < p->cap_lids)
		return IBU_OK;
	while (cap <= lid)
		cap *= 2;
	if (cap > IBU_MAX_UCAST_LID + 1)
		cap = IBU_MAX_UCAST_LID + 1;
	o = realloc(p->d->owner, cap * sizeof(*o));
	if (!o)
		return nomem(p);
	p->d->owner = o;
	cl = realloc(p->claim_line, cap * sizeof(*cl));
	if (!cl)
		return nomem(p);
	p->claim_line = cl;
	for (i = p->cap_lids; i < cap; i++) {
		o[i] = -1;
		cl[i] = 0;
	}
	p->cap_lids = cap;
	return IBU_OK;
}

static uint32_t hash_guid(uint64_t g, uint32_t size)
{
	g ^= g >> 33;
	g *= 0xff51afd7ed558ccdULL;
	g ^= g >> 33;
	return (uint32_t)g & (size - 1);
}

static int rehash(struct parser *p)
{
	uint32_t size = p->hash_size ? 2 * p->hash_size : 256, h;
	int *t = malloc(size * sizeof(*t)), i;

	if (!t)
		return nomem(p);
	for (h = 0; h < size; h++)
		t[h] = -1;
	for (i = 0; i < p->d->num_ports; i++) {
		h = hash_guid(p->d->port[i].guid, size);
		while (t[h] >= 0)
			h = (h + 1) & (size - 1);
		t[h] = i;
	}
	free(p->hash);
	p->hash = t;
	p->hash_size = size;
	return IBU_OK;
}

/* Port index of guid, created when new. */
static int port_of_guid(struct parser *p, uint64_t guid, int line)
{
	struct ibu_dump *d = p->d;
	struct ibu_dump_port *np;
	uint32_t h;
	int rc;

	if (p->hash_size) {
		h = hash_guid(guid, p->hash_size);
		while (p->hash[h] >= 0) {
			if (d->port[p->hash[h]].guid == guid)
				return p->hash[h];
			h = (h + 1) & (p->hash_size - 1);
		}
	}
	if (d->num_ports == p->cap_ports) {
		int cap = p->cap_ports ? 2 * p->cap_ports : 64;
		uint32_t *lo, *hi;
		int *sl;

		np = realloc(d->port, cap * sizeof(*np));
		if (!np)
			return nomem(p);
		d->port = np;
		lo = realloc(p->lo, cap * sizeof(*lo));
		if (!lo)
			return nomem(p);
		p->lo = lo;
		hi = realloc(p->hi, cap * sizeof(*hi));
		if (!hi)
			return nomem(p);
		p->hi = hi;
		sl = realloc(p->set_line, cap * sizeof(*sl));
		if (!sl)
			return nomem(p);
		p->set_line = sl;
		lo = realloc(p->nclaims, cap * sizeof(*lo));
		if (!lo)
			return nomem(p);
		p->nclaims = lo;
		p->cap_ports = cap;
	}
	np = &d->port[d->num_ports];
	memset(np, 0, sizeof(*np));
	np->guid = guid;
	np->line = line;
	p->lo[d->num_ports] = UINT32_MAX;
	p->hi[d->num_ports] = 0;
	p->set_line[d->num_ports] = 0;
	p->nclaims[d->num_ports] = 0;
	d->num_ports++;
	if ((uint32_t)d->num_ports * 2 > p->hash_size) {
		rc = rehash(p);
		if (rc)
			return rc;
		return d->num_ports - 1;
	}
	h = hash_guid(guid, p->hash_size);
	while (p->hash[h] >= 0)
		h = (h + 1) & (p->hash_size - 1);
	p->hash[h] = d->num_ports - 1;
	return d->num_ports - 1;
}

/*
 * Records that LID lid belongs to port guid. set_lmc >= 0 when the line
 * also fixes the port's base LID and LMC ("path #k out of 2^set_lmc").
 */
static int claim(struct parser *p, int line, uint32_t lid, uint64_t guid,
		 enum ibu_node_type type, const char *name, uint32_t set_base,
		 int set_lmc)
{
	struct ibu_dump *d = p->d;
	struct ibu_dump_port *dp;
	int idx, rc;

	rc = grow_lids(p, lid);
	if (rc)
		return rc;
	idx = port_of_guid(p, guid, line);
	if (idx < 0)
		return idx;
	dp = &d->port[idx];
	if (d->owner[lid] >= 0 && d->owner[lid] != idx)
		return ibu_err_set(p->e, IBU_ELID,
				   "%s:%d: LID 0x%04x belongs to port 0x%016" PRIx64
				   " here but to port 0x%016" PRIx64 " at line %d",
				   p->name, line, lid, guid,
				   d->port[d->owner[lid]].guid,
				   p->claim_line[lid]);
	if (d->owner[lid] < 0) {
		d->owner[lid] = idx;
		p->claim_line[lid] = line;
		p->nclaims[idx]++;
	}
	if (lid < p->lo[idx])
		p->lo[idx] = lid;
	if (lid > p->hi[idx])
		p->hi[idx] = lid;
	if (type && !dp->type)
		dp->type = type;
	if (name && (!dp->name || !dp->name[0])) {
		char *n = ibu_escape_dup(name);

		if (!n)
			return nomem(p);
		free(dp->name);
		dp->name = n;
	}
	if (set_lmc >= 0) {
		if (p->set_line[idx] &&
		    (dp->base != set_base || dp->lmc != set_lmc))
			return ibu_err_set(p->e, IBU_ELID,
					   "%s:%d: port 0x%016" PRIx64
					   " has LIDs 0x%04x..0x%04x here but 0x%04x..0x%04x at line %d",
					   p->name, line, guid, set_base,
					   set_base + (1u << set_lmc) - 1,
					   dp->base,
					   dp->base + (1u << dp->lmc) - 1,
					   p->set_line[idx]);
		if (!p->set_line[idx]) {
			dp->base = (uint16_t)set_base;
			dp->lmc = (uint8_t)set_lmc;
			p->set_line[idx] = line;
		}
	}
	return IBU_OK;
}

static int parse_u32(const char **s, int base, uint32_t *v)
{
	uint64_t x;

	if (ibu_num(*s, base, 0, UINT32_MAX, &x, s))
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* "0x" and 1-16 hex digits */
static int parse_guid(const char **s, uint64_t *v)
{
	if (!starts(*s, "0x"))
		return -1;
	return ibu_num_guid(*s, v, s);
}

static enum ibu_node_type type_of_text(const char *s, size_t len)
{
	if (len == 15 && !strncmp(s, "Channel Adapter", len))
		return IBU_NODE_CA;
	if (len == 6 && !strncmp(s, "Switch", len))
		return IBU_NODE_SWITCH;
	if (len == 6 && !strncmp(s, "Router", len))
		return IBU_NODE_ROUTER;
	return 0;
}

/*
 * The destination info of an entry (without ": (" ... ")" or "# "), for
 * LID lid. *valid is cleared for "illegal port" lines.
 */
static int entry_info(struct parser *p, int line, uint32_t lid, char *info,
		      int *valid, const char *text)
{
	const char *s = info, *pg;
	uint64_t guid;
	uint32_t k, n;

	*valid = 1;
	if (!*s)
		return IBU_OK;	/* brief listing */
	if (starts(s, "path #")) {
		s += 6;
		if (parse_u32(&s, 10, &k))
			return perr(p, line, "bad path number", text);
		if (!strcmp(s, " - illegal port")) {
			*valid = 0;
			return IBU_OK;
		}
		if (!starts(s, " out of "))
			return perr(p, line, "bad path info", text);
		s += 8;
		if (parse_u32(&s, 10, &n))
			return perr(p, line, "bad path count", text);
		if (k < 1 || k > n || n > 128 || (n & (n - 1)))
			return perr(p, line, "path #k out of N needs 1 <= k <= N, N a power of two <= 128",
				    text);
		if (!*s)
			return IBU_OK;	/* owner unknown to the dumping tool */
		if (!starts(s, ": portguid "))
			return perr(p, line, "bad path info", text);
		s += 11;
		if (parse_guid(&s, &guid) || *s)
			return perr(p, line, "bad port GUID", text);
		if (lid < k)
			return perr(p, line, "path number beyond the LID", text);
		{
			uint32_t base = lid - (k - 1);
			int lmc = 0;

			while ((1u << lmc) < n)
				lmc++;
			return claim(p, line, lid, guid, 0, NULL, base, lmc);
		}
	}
	if (!strcmp(s, "illegal port")) {
		*valid = 0;
		return IBU_OK;
	}
	if (!strcmp(s, "unknown node and type") ||
	    !strcmp(s, "node info not available fabric scan"))
		return IBU_OK;
	pg = strstr(s, " portguid ");
	if (pg) {
		enum ibu_node_type type = type_of_text(s, pg - s);
		const char *q;
		char *name, *end;

		s = pg + 10;
		if (parse_guid(&s, &guid))
			return perr(p, line, "bad port GUID", text);
		if (!starts(s, ": '"))
			return perr(p, line, "bad destination info", text);
		name = (char *)s + 3;
		end = strrchr(name, '\'');
		if (!end)
			return perr(p, line, "unterminated node name", text);
		q = skip_ws(end + 1);
		if (*q)
			return perr(p, line, "bad destination info", text);
		*end = '\0';
		return claim(p, line, lid, guid, type, name, 0, -1);
	}
	return perr(p, line, "bad destination info", text);
}

/* What a table header says. */
struct table_head {
	uint32_t start, top, lid;	/* LID range; switch LID, 0 unknown */
	uint64_t guid;
	char *name;			/* in the line, unquoted */
};

/* The name of "... (NAME):" at name (OpenSM's dump quotes it: p->osm). */
static int head_name(struct parser *p, char *name, const char *line,
		     int lineno, char **out)
{
	size_t len = strlen(name);

	while (len && isspace((unsigned char)name[len - 1]))
		len--;
	if (len < 2 || name[len - 2] != ')' || name[len - 1] != ':')
		return perr(p, lineno, "table header does not end with '):'", line);
	name[len - 2] = '\0';
	len -= 2;
	if (len >= 2 && name[0] == '\'' && name[len - 1] == '\'') {
		name[len - 1] = '\0';
		name++;
		p->osm = 1;
	} else {
		p->osm = 0;
	}
	*out = name;
	return IBU_OK;
}

/* "Unicast lids [START-TOP] of switch <Lid N | DR path> guid 0xG (NAME):" */
static int parse_head(struct parser *p, char *line, int lineno,
		      struct table_head *h)
{
	const char *s = line + 14;	/* after "Unicast lids [" */
	const char *g, *addr;

	h->lid = 0;
	if (parse_u32(&s, 0, &h->start) || *s != '-')
		return perr(p, lineno, "bad LID range in table header", line);
	s++;
	if (parse_u32(&s, 0, &h->top) || !starts(s, "] of switch "))
		return perr(p, lineno, "bad LID range in table header", line);
	if (h->start > h->top || h->start > IBU_MAX_UCAST_LID)
		return perr(p, lineno, "LID range of the table header reversed or beyond 0xbfff", line);
	if (h->top > IBU_MAX_UCAST_LID)
		h->top = IBU_MAX_UCAST_LID;	/* as ibroute truncates */
	addr = s + 12;
	g = strstr(addr, " guid 0x");
	if (!g)
		return perr(p, lineno, "table header without a switch GUID", line);
	if (starts(addr, "Lid ")) {
		const char *a = addr + 4;

		if (parse_u32(&a, 0, &h->lid) || a != g ||
		    h->lid > IBU_MAX_UCAST_LID)
			return perr(p, lineno, "bad switch LID in table header",
				    line);
	}
	s = g + 6;
	if (parse_guid(&s, &h->guid) || !starts(s, " ("))
		return perr(p, lineno, "bad switch GUID in table header", line);
	return head_name(p, (char *)s + 2, line, lineno, &h->name);
}

/* A new switch table for h at the end of d->sw (one per GUID). */
static int add_switch(struct parser *p, const struct table_head *h,
		      int lineno)
{
	struct ibu_dump *d = p->d;
	struct ibu_dump_switch *sw;
	int i;

	for (i = 0; i < d->num_switches; i++)
		if (d->sw[i].guid == h->guid)
			return ibu_err_set(p->e, IBU_EPARSE,
					   "%s:%d: second table of switch 0x%016" PRIx64
					   " (first at line %d)", p->name,
					   lineno, h->guid, d->sw[i].line);
	if (d->num_switches == p->cap_switches) {
		int cap = p->cap_switches ? 2 * p->cap_switches : 64;
		struct ibu_dump_switch *ns = realloc(d->sw, cap * sizeof(*ns));

		if (!ns)
			return nomem(p);
		d->sw = ns;
		p->cap_switches = cap;
	}
	sw = &d->sw[d->num_switches];
	memset(sw, 0, sizeof(*sw));
	sw->guid = h->guid;
	sw->lid = (uint16_t)h->lid;
	sw->line = lineno;
	sw->top = h->top;
	/* the row grows with the entries, not with the header's range */
	sw->max_lid = 0;
	sw->name = ibu_escape_dup(h->name);
	sw->port = malloc(1);
	if (!sw->name || !sw->port) {
		free(sw->name);
		free(sw->port);
		return nomem(p);
	}
	sw->port[0] = IBU_NO_PATH;
	p->row_cap = 1;
	p->cur = d->num_switches++;
	return IBU_OK;
}

static int open_switch(struct parser *p, char *line, int lineno)
{
	struct table_head h;
	int rc = parse_head(p, line, lineno, &h);

	if (!rc)
		rc = add_switch(p, &h, lineno);
	if (rc)
		return rc;
	if (p->pr && p->size > 0) {
		off_t pos = ftello(p->in);

		ibu_progress_report(p->pr, "reading the dump, MiB",
				    pos > 0 ? (uint64_t)pos >> 20 : 0,
				    (uint64_t)p->size >> 20);
	} else if (p->pr) {
		ibu_progress_report(p->pr, "reading the dump, tables",
				    (uint64_t)p->d->num_switches, 0);
	}
	p->entries = 0;
	p->trailer = 0;
	p->start = h.start;
	return IBU_OK;
}

/* Unsigned numbers of entry lines, by hand (no strtoul per line). */
static int scan_num(const char **s, unsigned base, uint32_t *v)
{
	const unsigned char *q = (const unsigned char *)*s;
	uint64_t x = 0;
	unsigned d;

	for (;; q++) {
		unsigned c = *q;

		if (c - '0' < 10u)
			d = c - '0';
		else if (base == 16 && (c | 0x20u) - 'a' < 6u)
			d = (c | 0x20u) - 'a' + 10;
		else
			break;
		x = x * base + d;
		if (x > 0xFFFFFFFFu)
			return -1;
	}
	if (q == (const unsigned char *)*s)
		return -1;
	*v = (uint32_t)x;
	*s = (const char *)q;
	return 0;
}

/* Remembers text (len bytes) as the destination text of lid. */
static int remember(struct parser *p, uint32_t lid, const char *text,
		    size_t len, int valid)
{
	if (lid >= p->seen_cap) {
		uint32_t cap = p->seen_cap ? p->seen_cap : 1024;
		void *a, *b, *c;

		while (cap <= lid)
			cap *= 2;
		a = realloc(p->seen_off, cap * sizeof(*p->seen_off));
		if (a)
			p->seen_off = a;
		b = realloc(p->seen_len, cap * sizeof(*p->seen_len));
		if (b)
			p->seen_len = b;
		c = realloc(p->seen_valid, cap);
		if (c)
			p->seen_valid = c;
		if (!a || !b || !c)
			return nomem(p);
		memset(p->seen_len + p->seen_cap, 0,
		       (cap - p->seen_cap) * sizeof(*p->seen_len));
		p->seen_cap = cap;
	}
	if (p->seen_len[lid] || len >= UINT32_MAX - 1 ||
	    p->pool_len + len > UINT32_MAX)
		return IBU_OK;
	if (p->pool_len + len > p->pool_cap) {
		size_t cap = p->pool_cap ? p->pool_cap : 1 << 16;
		char *np;

		while (cap < p->pool_len + len)
			cap *= 2;
		np = realloc(p->seen_pool, cap);
		if (!np)
			return nomem(p);
		p->seen_pool = np;
		p->pool_cap = cap;
	}
	if (len)	/* an empty pool may still be NULL */
		memcpy(p->seen_pool + p->pool_len, text, len);
	p->seen_off[lid] = (uint32_t)p->pool_len;
	p->seen_len[lid] = (uint32_t)len + 1;
	p->seen_valid[lid] = (uint8_t)valid;
	p->pool_len += len;
	return IBU_OK;
}

/* "0xLID PORT" of an entry line, checked against the open table; *s is
 * left at what follows (the destination info). */
static int entry_head(struct parser *p, const struct ibu_dump_switch *sw,
		      const char *line, int lineno, const char **s,
		      uint32_t *lid, uint32_t *port)
{
	if (scan_num(s, 16, lid) || !isspace((unsigned char)**s))
		return perr(p, lineno, "bad LID", line);
	*s = skip_ws(*s);
	if (scan_num(s, 10, port) || (**s && !isspace((unsigned char)**s)))
		return perr(p, lineno, "bad out port", line);
	if (*port > 255)
		return perr(p, lineno, "out port beyond 255", line);
	if (*lid > IBU_MAX_UCAST_LID)
		return perr(p, lineno, "LID beyond the unicast range", line);
	if (!*lid)
		return perr(p, lineno, "an entry for LID 0 (reserved, never routed)", line);
	if (*lid < p->start || *lid > sw->top)
		return perr(p, lineno, "LID outside the range of the table header", line);
	*s = skip_ws(*s);
	return IBU_OK;
}

/* The destination info of copy (": (...)" or "# ..."), in place: *info
 * its text. */
static int info_text(struct parser *p, char *copy, const char *line,
		     int lineno, char **out)
{
	char *info = copy;
	size_t len = strlen(info);

	while (len && isspace((unsigned char)info[len - 1]))
		info[--len] = '\0';
	if (*info == ':') {
		info = (char *)skip_ws(info + 1);
		len = strlen(info);
		if (*info != '(' || len < 2 || info[len - 1] != ')')
			return perr(p, lineno, "destination info not in parentheses",
				    line);
		info[len - 1] = '\0';
		info++;
	} else if (*info == '#') {
		info = (char *)skip_ws(info + 1);
		len = strlen(info);
		while (len && isspace((unsigned char)info[len - 1]))
			info[--len] = '\0';
	} else if (*info) {
		return perr(p, lineno, "bad destination info", line);
	}
	*out = info;
	return IBU_OK;
}

/* The destination info s (rest bytes) of lid's entry: *valid = whether
 * the entry routes (a text seen before for lid is not parsed again). */
static int entry_dest(struct parser *p, uint32_t lid, const char *s,
		      size_t rest, const char *line, int lineno, int *valid)
{
	char *info = NULL, *copy;
	int rc;

	if (lid < p->seen_cap && p->seen_len[lid] == rest + 1 &&
	    (!rest || !memcmp(p->seen_pool + p->seen_off[lid], s, rest))) {
		/* (!rest: an empty text may have no pool behind it) */
		p->entries++;
		*valid = p->seen_valid[lid];
		return IBU_OK;
	}
	copy = strdup(s);
	if (!copy)
		return nomem(p);
	rc = info_text(p, copy, line, lineno, &info);
	if (!rc) {
		p->entries++;
		p->total_entries++;
		rc = entry_info(p, lineno, lid, info, valid, line);
	}
	free(copy);
	if (!rc)
		rc = remember(p, lid, s, rest, *valid);
	return rc;
}

/* sw routes lid through port (the row grows as needed). */
static int set_route(struct parser *p, struct ibu_dump_switch *sw,
		     uint32_t lid, uint32_t port, const char *line, int lineno)
{
	if (lid >= p->row_cap) {
		uint32_t cap = p->row_cap < 64 ? 64 : p->row_cap;
		uint8_t *np;

		while (cap <= lid)
			cap *= 2;
		if (cap > IBU_MAX_UCAST_LID + 1)
			cap = IBU_MAX_UCAST_LID + 1;
		np = realloc(sw->port, cap);
		if (!np)
			return nomem(p);
		memset(np + p->row_cap, IBU_NO_PATH, cap - p->row_cap);
		sw->port = np;
		p->row_cap = cap;
	}
	if (lid > sw->max_lid)
		sw->max_lid = lid;
	if (sw->port[lid] != IBU_NO_PATH)
		return perr(p, lineno, "LID listed twice in one table", line);
	sw->port[lid] = (uint8_t)port;
	if ((int)port > sw->max_port) {
		sw->max_port = (int)port;
		sw->max_port_line = lineno;
	}
	return IBU_OK;
}

/* line: NUL-terminated, line_len bytes, without its newline */
static int entry(struct parser *p, char *line, size_t line_len, int lineno)
{
	struct ibu_dump_switch *sw;
	const char *s = line + 2;
	uint32_t lid = 0, port = 0;
	int valid = 1, rc;

	if (p->cur < 0 || p->trailer)
		return perr(p, lineno, "LFT entry outside a switch table", line);
	sw = &p->d->sw[p->cur];
	rc = entry_head(p, sw, line, lineno, &s, &lid, &port);
	if (!rc)
		rc = entry_dest(p, lid, s, line_len - (size_t)(s - line), line,
				lineno, &valid);
	if (rc)
		return rc;
	if (!valid || port == IBU_NO_PATH)
		return IBU_OK;	/* illegal entries route nothing */
	return set_route(p, sw, lid, port, line, lineno);
}

static int trailer(struct parser *p, char *line, int lineno)
{
	const char *s = line;
	uint32_t n;
	struct ibu_dump_switch *sw;

	if (p->cur < 0 || p->trailer)
		return perr(p, lineno, "'lids dumped' outside a switch table", line);
	sw = &p->d->sw[p->cur];
	if (parse_u32(&s, 10, &n))
		return perr(p, lineno, "bad trailer", line);
	s = skip_ws(s);
	if (starts(s, "valid "))
		s += 6;
	if (!starts(s, "lids dumped") || *skip_ws(s + 11))
		return perr(p, lineno, "bad trailer", line);
	/* opensm-lfts.dump counts the table's range, the tools their lines */
	if (p->osm ? n != sw->top : (long)n != p->entries) {
		char msg[128];

		snprintf(msg, sizeof(msg),
			 "trailer says %u but the table of line %d has %ld",
			 n, sw->line, p->osm ? (long)sw->top : p->entries);
		return perr(p, lineno, msg, line);
	}
	p->trailer = 1;
	return IBU_OK;
}

static int close_check(struct parser *p)
{
	if (p->cur >= 0 && !p->trailer)
		return ibu_err_set(p->e, IBU_EPARSE,
				   "%s:%d: table of switch '%s' has no 'lids dumped' line (truncated dump?)",
				   p->name, p->d->sw[p->cur].line,
				   p->d->sw[p->cur].name);
	return IBU_OK;
}

static int parse_line(struct parser *p, char *line, int lineno)
{
	size_t len = strlen(line);
	const char *s;
	int rc;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	s = skip_ws(line);
	if (!*s)
		return IBU_OK;
	if (starts(line, "Unicast lids [")) {
		rc = close_check(p);
		return rc ? rc : open_switch(p, line, lineno);
	}
	if (starts(line, "0x"))
		return entry(p, line, len, lineno);
	if (isdigit((unsigned char)*line))
		return trailer(p, line, lineno);
	if (starts(s, "Lid  Out") || (starts(s, "Port") && strstr(s, "Info")))
		return IBU_OK;	/* column titles */
	if (starts(s, "*** WARNING ***") || starts(s, "ibwarn:"))
		return IBU_OK;
	return perr(p, lineno, "not an LFT dump line", line);
}

static int cmp_base(const void *a, const void *b)
{
	const struct ibu_dump_port *x = a, *y = b;

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return 0;
}

/* Port i's LID set: the one the dump states, else the smallest aligned
 * LMC set holding the LIDs it claims. */
static int port_set(struct parser *p, int i)
{
	struct ibu_dump_port *dp = &p->d->port[i];
	uint32_t lo = p->lo[i], hi = p->hi[i], size;
	int lmc = 0;

	dp->explicit_set = p->set_line[i] != 0;
	if (dp->explicit_set) {
		/*
		 * IBA wants base LIDs aligned to 2^LMC, but the paper's own
		 * numbering (offline) is not: the dump states the set
		 * exactly, so it is accepted here and left to the checks to
		 * point out.
		 */
		size = 1u << dp->lmc;
		if (lo < dp->base || hi > dp->base + size - 1)
			return ibu_err_set(p->e, IBU_ELID,
					   "%s:%d: port 0x%016" PRIx64
					   " owns LID 0x%04x outside its set 0x%04x..0x%04x (line %d)",
					   p->name,
					   p->claim_line[lo < dp->base ? lo : hi],
					   dp->guid, lo < dp->base ? lo : hi,
					   dp->base, dp->base + size - 1,
					   p->set_line[i]);
		return IBU_OK;
	}
	size = hi - lo + 1;
	if (p->nclaims[i] == size && !(size & (size - 1)) &&
	    size <= (1u << IBU_DUMP_MAX_LMC)) {
		/* every LID of a whole set, aligned or not */
		while ((1u << lmc) < size)
			lmc++;
		dp->lmc = (uint8_t)lmc;
		dp->base = (uint16_t)lo;
		return IBU_OK;
	}
	while (lmc <= IBU_DUMP_MAX_LMC && (lo >> lmc) != (hi >> lmc))
		lmc++;
	if (lmc > IBU_DUMP_MAX_LMC || (lmc && !(lo >> lmc)))
		return ibu_err_set(p->e, IBU_ELID,
				   "%s:%d: LIDs 0x%04x (line %d) and 0x%04x (line %d) of port 0x%016" PRIx64
				   " are not one aligned LMC set",
				   p->name, p->claim_line[hi], lo,
				   p->claim_line[lo], hi,
				   p->claim_line[hi], dp->guid);
	dp->lmc = (uint8_t)lmc;
	dp->base = (uint16_t)(lo & ~((1u << lmc) - 1));
	return IBU_OK;
}

/* The ports sorted by base LID, each with the line that gave its set. */
static void sort_ports(struct parser *p)
{
	struct ibu_dump *d = p->d;
	int i;

	for (i = 0; i < d->num_ports; i++)
		d->port[i].line = i;	/* temporarily: the old index */
	if (d->num_ports)	/* d->port is NULL when no entry names an owner */
		qsort(d->port, d->num_ports, sizeof(*d->port), cmp_base);
	for (i = 0; i < d->num_ports; i++) {
		int old = d->port[i].line;

		d->port[i].line = p->set_line[old] ? p->set_line[old] :
				  p->claim_line[p->lo[old]];
	}
}

/* The sorted sets fit the unicast LID space and are disjoint. */
static int check_sets(struct parser *p)
{
	struct ibu_dump *d = p->d;
	int i;

	for (i = 0; i < d->num_ports; i++) {
		struct ibu_dump_port *a = &d->port[i];

		if ((uint32_t)a->base + (1u << a->lmc) - 1 > IBU_MAX_UCAST_LID)
			return ibu_err_set(p->e, IBU_ELID,
					   "%s:%d: LIDs 0x%04x..0x%04x of port 0x%016" PRIx64
					   " run beyond the unicast LID space",
					   p->name, a->line, a->base,
					   a->base + (1u << a->lmc) - 1, a->guid);
	}
	for (i = 1; i < d->num_ports; i++) {
		struct ibu_dump_port *a = &d->port[i - 1], *b = &d->port[i];

		if ((uint32_t)a->base + (1u << a->lmc) > b->base)
			return ibu_err_set(p->e, IBU_ELID,
					   "%s:%d: LIDs 0x%04x..0x%04x of port 0x%016" PRIx64
					   " overlap LIDs 0x%04x..0x%04x of port 0x%016" PRIx64
					   " (line %d)", p->name, b->line, b->base,
					   b->base + (1u << b->lmc) - 1, b->guid,
					   a->base, a->base + (1u << a->lmc) - 1,
					   a->guid, a->line);
	}
	return IBU_OK;
}

/* Works out each port's LID set and checks that the sets are disjoint. */
static int finish_ports(struct parser *p)
{
	struct ibu_dump *d = p->d;
	uint32_t lid;
	int i, rc;

	for (i = 0; i < d->num_ports; i++) {
		rc = port_set(p, i);
		if (rc)
			return rc;
	}
	sort_ports(p);
	rc = check_sets(p);
	if (rc)
		return rc;
	/* the owner table covers every LID of every set */
	for (lid = 0; lid <= d->max_lid; lid++)
		d->owner[lid] = -1;
	for (i = 0; i < d->num_ports; i++) {
		uint32_t top = d->port[i].base + (1u << d->port[i].lmc) - 1;

		for (lid = d->port[i].base; lid <= top && lid <= d->max_lid; lid++)
			d->owner[lid] = i;
	}
	return IBU_OK;
}

static int parse_stream(FILE *in, const char *name, struct ibu_dump *d,
			const struct ibu_progress *pr, struct ibu_err *e)
{
	struct parser p;
	struct ibu_lines lines;
	int rc = IBU_OK, i;

	memset(d, 0, sizeof(*d));
	memset(&p, 0, sizeof(p));
	p.name = name;
	p.d = d;
	p.e = e;
	p.cur = -1;
	p.pr = pr;
	p.in = in;
	if (pr) {
		struct stat st;

		if (!fstat(fileno(in), &st) && S_ISREG(st.st_mode))
			p.size = st.st_size;
	}
	d->source = strdup(name ? name : "");
	if (!d->source)
		return nomem(&p);
	ibu_lines_init(&lines, in, name);
	while ((rc = ibu_lines_next(&lines, e)) > 0) {
		rc = parse_line(&p, lines.line, lines.lineno);
		if (rc)
			goto out;
	}
	if (rc < 0)
		goto out;
	rc = close_check(&p);
	if (rc)
		goto out;
	if (!d->num_switches) {
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no switch table (not an LFT dump?)",
				 name, lines.lineno ? lines.lineno : 1);
		goto out;
	}
	if (!p.total_entries) {
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no LFT entry in any of the %d tables (failed dump?)",
				 name, d->sw[0].line, d->num_switches);
		goto out;
	}
	for (i = 0; i < d->num_switches; i++)
		if (d->sw[i].max_lid > d->max_lid)
			d->max_lid = d->sw[i].max_lid;
	rc = grow_lids(&p, d->max_lid);
	if (!rc)
		rc = finish_ports(&p);
out:
	ibu_lines_free(&lines);
	free(p.claim_line);
	free(p.lo);
	free(p.hi);
	free(p.set_line);
	free(p.nclaims);
	free(p.hash);
	free(p.seen_off);
	free(p.seen_len);
	free(p.seen_valid);
	free(p.seen_pool);
	if (rc)
		ibu_dump_free(d);
	return rc;
}

int ibu_dump_parse_stream(FILE *in, const char *name, struct ibu_dump *d,
			  struct ibu_err *e)
{
	return parse_stream(in, name, d, NULL, e);
}

int ibu_dump_parse_progress(const char *path, struct ibu_dump *d,
			    const struct ibu_progress *pr, struct ibu_err *e)
{
	FILE *in;
	char *buf;
	int rc;

	memset(d, 0, sizeof(*d));
	in = ibu_input_open(path, e);
	if (!in)
		return e ? e->code : IBU_EIO;
	/* dumps of large fabrics run to gigabytes: read in big blocks */
	buf = malloc(1 << 20);
	if (buf)
		setvbuf(in, buf, _IOFBF, 1 << 20);
	rc = parse_stream(in, ibu_input_name(path), d, pr, e);
	fclose(in);
	free(buf);
	return rc;
}

int ibu_dump_parse(const char *path, struct ibu_dump *d, struct ibu_err *e)
{
	return ibu_dump_parse_progress(path, d, NULL, e);
}

void ibu_dump_free(struct ibu_dump *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->num_switches; i++) {
		free(d->sw[i].name);
		free(d->sw[i].port);
	}
	free(d->sw);
	for (i = 0; i < d->num_ports; i++)
		free(d->port[i].name);
	free(d->port);
	free(d->owner);
	free(d->source);
	memset(d, 0, sizeof(*d));
}

int ibu_dump_find_switch(const struct ibu_dump *d, uint64_t guid)
{
	int i;

	for (i = 0; i < d->num_switches; i++)
		if (d->sw[i].guid == guid)
			return i;
	return -1;
}

/* ------------------------------------------------------------ applying */

/* The fabric port a dump port names: by port GUID, else by node name. */
static int resolve_port(const struct ibu_dump *d, const struct ibu_dump_port *dp,
			const struct ibu_fabric *f, int *port, struct ibu_err *e)
{
	int node = ibu_fabric_find_port_guid(f, dp->guid, port), p, found;
	const struct ibu_node *n;

	if (node < 0 && dp->name && dp->name[0]) {
		node = ibu_fabric_find_name(f, dp->name);
		if (node >= 0) {
			n = &f->nodes[node];
			if (ibu_node_is_switch(n)) {
				*port = 0;
			} else {
				found = 0;
				for (p = 1; p <= n->num_ports; p++)
					if (n->ports[p].peer_node >= 0) {
						*port = p;
						found++;
					}
				if (found != 1)
					return ibu_err_set(e, IBU_ENOTFOUND,
							   "%s:%d: port GUID 0x%016" PRIx64
							   " is not in %s and node '%s' has %d cabled ports there",
							   d->source, dp->line, dp->guid,
							   f->source ? f->source : "the fabric",
							   dp->name, found);
			}
		}
	}
	if (node < 0)
		return ibu_err_set(e, IBU_ENOTFOUND,
				   "%s:%d: port GUID 0x%016" PRIx64 " ('%s') is not in %s",
				   d->source, dp->line, dp->guid,
				   dp->name ? dp->name : "",
				   f->source ? f->source : "the fabric");
	n = &f->nodes[node];
	if (dp->type && (dp->type == IBU_NODE_SWITCH) != ibu_node_is_switch(n))
		return ibu_err_set(e, IBU_EINVAL,
				   "%s:%d: port 0x%016" PRIx64 " is a %s in the dump but '%s' is %s in %s",
				   d->source, dp->line, dp->guid,
				   dp->type == IBU_NODE_SWITCH ? "switch" : "end port",
				   n->name, ibu_node_is_switch(n) ? "a switch" : "not a switch",
				   f->source ? f->source : "the fabric");
	return node;
}

/* Does the LID range [lo, hi] hold a LID the dump gives to a port other
 * than idx (-1: to any port)? */
static int collides(const struct ibu_dump *d, uint32_t lo, uint32_t hi, int idx)
{
	uint32_t lid;

	for (lid = lo; lid <= hi && lid <= d->max_lid; lid++)
		if (d->owner[lid] >= 0 && d->owner[lid] != idx)
			return 1;
	return 0;
}

/* Ports the dump does not name (taken < 0) keep their LIDs unless they
 * collide with a set of the dump. */
static void clear_colliding(const struct ibu_dump *d, struct ibu_fabric *f,
			    const int *slot_base, const int *taken)
{
	int i, p;

	for (i = 0; i < f->num_nodes; i++) {
		struct ibu_node *n = &f->nodes[i];
		int first = ibu_node_is_switch(n) ? 0 : 1;
		int last = ibu_node_is_switch(n) ? 0 : n->num_ports;

		for (p = first; p <= last; p++) {
			struct ibu_port *pt = &n->ports[p];

			if (taken[slot_base[i] + p] >= 0 || !pt->lid)
				continue;
			if (collides(d, pt->lid, pt->lid + (1u << pt->lmc) - 1, -1)) {
				pt->lid = 0;
				pt->lmc = 0;
			}
		}
	}
}

/* Every port the dump names (dump port i is node_of[i] port port_of[i])
 * takes the dump's set. */
static void set_named(const struct ibu_dump *d, struct ibu_fabric *f,
		      const int *node_of, const int *port_of)
{
	int i;

	for (i = 0; i < d->num_ports; i++) {
		const struct ibu_dump_port *dp = &d->port[i];
		struct ibu_port *pt = &f->nodes[node_of[i]].ports[port_of[i]];
		uint32_t size = 1u << pt->lmc;

		/* a set the dump only saw part of may be the fabric's wider one */
		if (!dp->explicit_set && pt->lid && pt->lmc > dp->lmc &&
		    !(pt->lid % size) && pt->lid <= dp->base &&
		    (uint32_t)dp->base + (1u << dp->lmc) <= pt->lid + size &&
		    !collides(d, pt->lid, pt->lid + size - 1, i))
			continue;
		pt->lid = dp->base;
		pt->lmc = dp->lmc;
	}
}

static int apply_lids(const struct ibu_dump *d, struct ibu_fabric *f,
		      struct ibu_err *e)
{
	int *slot_base, *taken, *node_of, *port_of, i, p, rc = IBU_OK;
	size_t slots = 0;

	slot_base = malloc((f->num_nodes + 1) * sizeof(*slot_base));
	node_of = malloc((d->num_ports ? d->num_ports : 1) * sizeof(*node_of));
	port_of = malloc((d->num_ports ? d->num_ports : 1) * sizeof(*port_of));
	if (!slot_base || !node_of || !port_of) {
		free(slot_base);
		free(node_of);
		free(port_of);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < f->num_nodes; i++) {
		slot_base[i] = (int)slots;
		slots += f->nodes[i].num_ports + 1;
	}
	slot_base[f->num_nodes] = (int)slots;
	taken = malloc((slots ? slots : 1) * sizeof(*taken));
	if (!taken) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < (int)slots; i++)
		taken[i] = -1;
	for (i = 0; i < d->num_ports; i++) {
		int node = resolve_port(d, &d->port[i], f, &p, e), *t;

		if (node < 0) {
			rc = node;
			goto out;
		}
		t = &taken[slot_base[node] + p];
		if (*t >= 0) {
			rc = ibu_err_set(e, IBU_ELID,
					 "%s:%d: port 0x%016" PRIx64 " and port 0x%016" PRIx64
					 " (line %d) are both '%s' port %d",
					 d->source, d->port[i].line, d->port[i].guid,
					 d->port[*t].guid, d->port[*t].line,
					 f->nodes[node].name, p);
			goto out;
		}
		*t = i;
		node_of[i] = node;
		port_of[i] = p;
	}
	clear_colliding(d, f, slot_base, taken);
	set_named(d, f, node_of, port_of);
out:
	free(slot_base);
	free(taken);
	free(node_of);
	free(port_of);
	return rc;
}

int ibu_dump_apply(const struct ibu_dump *d, struct ibu_fabric *f,
		   struct ibu_lft *lft, int *sw_node, struct ibu_err *e)
{
	int i, j, rc, *nodes;

	memset(lft, 0, sizeof(*lft));
	if (!f->indexed) {
		rc = ibu_fabric_index(f, e);
		if (rc)
			return rc;
	}
	nodes = malloc((d->num_switches ? d->num_switches : 1) * sizeof(*nodes));
	if (!nodes)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < d->num_switches; i++) {
		const struct ibu_dump_switch *sw = &d->sw[i];
		int node = ibu_fabric_find_guid(f, sw->guid);

		if (!ibu_is_sw(f, node)) {
			node = sw->name[0] ? ibu_fabric_find_name(f, sw->name) : -1;
			/* a name is a hint, not an identity: a table names its
			 * switch by GUID, and that GUID must be the fabric's */
			if (ibu_is_sw(f, node)) {
				rc = ibu_err_set(e, IBU_ENOTFOUND,
						 "%s:%d: switch GUID 0x%016" PRIx64
						 " is not in %s ('%s' there is 0x%016" PRIx64 ")",
						 d->source, sw->line, sw->guid,
						 f->source ? f->source : "the fabric",
						 sw->name, f->nodes[node].guid);
				goto fail;
			}
		}
		if (!ibu_is_sw(f, node)) {
			rc = ibu_err_set(e, IBU_ENOTFOUND,
					 "%s:%d: switch 0x%016" PRIx64 " ('%s') is not in %s",
					 d->source, sw->line, sw->guid, sw->name,
					 f->source ? f->source : "the fabric");
			goto fail;
		}
		for (j = 0; j < i; j++)
			if (nodes[j] == node) {
				rc = ibu_err_set(e, IBU_EINVAL,
						 "%s:%d: table of switch '%s' again (first at line %d)",
						 d->source, sw->line,
						 f->nodes[node].name, d->sw[j].line);
				goto fail;
			}
		if (sw->max_port > f->nodes[node].num_ports) {
			rc = ibu_err_set(e, IBU_EINVAL,
					 "%s:%d: switch '%s' has %d ports, the dump uses port %d",
					 d->source, sw->max_port_line,
					 f->nodes[node].name,
					 f->nodes[node].num_ports, sw->max_port);
			goto fail;
		}
		nodes[i] = node;
	}
	rc = apply_lids(d, f, e);
	if (rc)
		goto fail;
	rc = ibu_lft_init(lft, f, d->max_lid, e);
	if (rc)
		goto fail;
	for (i = 0; i < d->num_switches; i++)
		memcpy(lft->row[nodes[i]], d->sw[i].port, d->sw[i].max_lid + 1);
	if (sw_node)
		memcpy(sw_node, nodes, d->num_switches * sizeof(*nodes));
	free(nodes);
	return IBU_OK;
fail:
	free(nodes);
	return rc;
}

int ibu_dump_read_lfts(const char *path, struct ibu_fabric *f,
		       struct ibu_lft *lft, struct ibu_err *e)
{
	struct ibu_dump d;
	int rc;

	memset(lft, 0, sizeof(*lft));
	rc = ibu_dump_parse(path, &d, e);
	if (rc)
		return rc;
	rc = ibu_dump_apply(&d, f, lft, NULL, e);
	ibu_dump_free(&d);
	return rc;
}

/* ------------------------------------------------------------ writing */

static const char *type_text(enum ibu_node_type t)
{
	switch (t) {
	case IBU_NODE_SWITCH: return "Switch";
	case IBU_NODE_ROUTER: return "Router";
	default: return "Channel Adapter";
	}
}

static const char hexdig[] = "0123456789abcdef";

/*
 * The entry lines of one table, built for one row and reused for every row
 * whose entries are present at the same LIDs: only the 3 port digits of
 * each line change from switch to switch, so a row costs one pass over it
 * and one fwrite. Formatting is by hand (no printf per line).
 */
struct writer {
	const struct ibu_fabric *f;
	const struct ibu_lidmap *map;
	uint32_t max_lid;
	char *buf;		/* entry lines of the current pattern */
	size_t len, cap;
	uint32_t *off;		/* [lid] offset of its port digits in buf */
	uint8_t *present;	/* [lid] the pattern has a line for lid */
	int count;		/* lines in buf */
	int valid;		/* buf holds a pattern */
	char digits[256][4];	/* "%03u" of every port */
};

static int wr_reserve(struct writer *w, size_t more, struct ibu_err *e)
{
	size_t cap = w->cap ? w->cap : 1 << 16;
	char *nb;

	if (w->len + more <= w->cap)
		return IBU_OK;
	while (cap < w->len + more)
		cap *= 2;
	nb = realloc(w->buf, cap);
	if (!nb)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	w->buf = nb;
	w->cap = cap;
	return IBU_OK;
}

static char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* "0x" + at least 4 hex digits, as %04x */
static char *put_hex4(char *p, uint32_t v)
{
	int nd = 4, i;

	while (nd < 8 && (v >> (4 * nd)))
		nd++;
	*p++ = '0';
	*p++ = 'x';
	for (i = nd - 1; i >= 0; i--)
		*p++ = hexdig[(v >> (4 * i)) & 15];
	return p;
}

/* "0x" + 16 hex digits, as %016" PRIx64 */
static char *put_guid(char *p, uint64_t g)
{
	int i;

	*p++ = '0';
	*p++ = 'x';
	for (i = 15; i >= 0; i--)
		*p++ = hexdig[(g >> (4 * i)) & 15];
	return p;
}

static char *put_uint(char *p, unsigned v)
{
	char t[12];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
}

/*
 * Builds the entry lines of row (switch with num_ports ports) from
 * scratch; the destination info follows dump_fts' rules exactly.
 */
static int wr_build(struct writer *w, const uint8_t *row, int num_ports,
		    struct ibu_err *e)
{
	const struct ibu_lid_owner *own = w->map->owner;
	uint32_t lid, last_lid = 0, base_lid = 0;
	uint64_t pguid = 0;
	int rc;

	w->len = 0;
	w->count = 0;
	w->valid = 0;
	for (lid = 1; lid <= w->max_lid; lid++) {
		unsigned port = row[lid];
		const struct ibu_node *o;
		const struct ibu_port *op;
		const char *tt;
		size_t nl;
		char *p;

		w->present[lid] = (int)port <= num_ports;
		if (!w->present[lid])
			continue;
		/* the longest line but the node name */
		nl = lid > w->map->max_lid || own[lid].node < 0 ? 0 :
		     strlen(w->f->nodes[own[lid].node].name);
		rc = wr_reserve(w, 128 + nl, e);
		if (rc)
			return rc;
		p = w->buf + w->len;
		w->count++;
		p = put_hex4(p, lid);
		*p++ = ' ';
		w->off[lid] = (uint32_t)(p - w->buf);
		p = put_str(p, w->digits[port], 3);
		p = put_str(p, " : (", 4);
		if (lid <= last_lid) {
			p = put_str(p, "path #", 6);
			p = put_uint(p, lid - base_lid + 1);
			p = put_str(p, " out of ", 8);
			p = put_uint(p, last_lid - base_lid + 1);
			if (pguid) {
				p = put_str(p, ": portguid ", 11);
				p = put_guid(p, pguid);
			}
			p = put_str(p, ")\n", 2);
			w->len = (size_t)(p - w->buf);
			continue;
		}
		pguid = 0;
		if (lid > w->map->max_lid || own[lid].node < 0) {
			p = put_str(p, "unknown node and type)\n", 23);
			w->len = (size_t)(p - w->buf);
			continue;
		}
		o = &w->f->nodes[own[lid].node];
		op = &o->ports[own[lid].port];
		pguid = op->guid;
		if (op->lmc) {
			base_lid = op->lid;
			last_lid = op->lid + (1u << op->lmc) - 1;
		}
		tt = type_text(o->type);
		p = put_str(p, tt, strlen(tt));
		p = put_str(p, " portguid ", 10);
		p = put_guid(p, pguid);
		p = put_str(p, ": '", 3);
		p = put_str(p, o->name, nl);
		p = put_str(p, "')\n", 3);
		w->len = (size_t)(p - w->buf);
	}
	w->valid = 1;
	return IBU_OK;
}

/* The entry lines of row: the current pattern with this row's ports
 * patched in, or a new pattern when the row has lines elsewhere. */
static int wr_row(struct writer *w, const uint8_t *row, int num_ports,
		  struct ibu_err *e)
{
	uint32_t lid;

	if (!w->valid)
		return wr_build(w, row, num_ports, e);
	for (lid = 1; lid <= w->max_lid; lid++) {
		unsigned port = row[lid];

		if (((int)port <= num_ports) != w->present[lid])
			return wr_build(w, row, num_ports, e);
		if (w->present[lid])
			memcpy(w->buf + w->off[lid], w->digits[port], 3);
	}
	return IBU_OK;
}

int ibu_dump_write_lfts(FILE *out, const struct ibu_fabric *f,
			const struct ibu_lft *lft, struct ibu_err *e)
{
	return ibu_dump_write_lfts_progress(out, f, lft, NULL, e);
}

int ibu_dump_write_lfts_progress(FILE *out, const struct ibu_fabric *f,
				 const struct ibu_lft *lft,
				 const struct ibu_progress *pr,
				 struct ibu_err *e)
{
	struct ibu_lidmap plan;
	struct writer w;
	char head[512];
	uint64_t rows = 0, done = 0;
	int i, rc, n;

	/* who owns each LID: the same table the router plans with */
	rc = ibu_lidmap_build(f, &plan, e);
	if (rc)
		return rc;
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.map = &plan;
	w.max_lid = lft->max_lid;
	for (i = 0; i < 256; i++) {
		w.digits[i][0] = (char)('0' + i / 100);
		w.digits[i][1] = (char)('0' + i / 10 % 10);
		w.digits[i][2] = (char)('0' + i % 10);
	}
	w.off = malloc(((size_t)w.max_lid + 1) * sizeof(*w.off));
	w.present = calloc((size_t)w.max_lid + 1, 1);
	if (!w.off || !w.present) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < f->num_nodes && i < lft->num_nodes; i++)
		rows += ibu_node_is_switch(&f->nodes[i]) && lft->row[i];
	for (i = 0; i < f->num_nodes && i < lft->num_nodes; i++) {
		const struct ibu_node *nd = &f->nodes[i];

		if (!ibu_node_is_switch(nd) || !lft->row[i])
			continue;
		ibu_progress_report(pr, "writing tables", done++, rows);
		rc = wr_row(&w, lft->row[i], nd->num_ports, e);
		if (rc)
			goto out;
		n = snprintf(head, sizeof(head),
			     "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016"
			     PRIx64 " (", lft->max_lid, nd->ports[0].lid, nd->guid);
		if (fwrite(head, 1, (size_t)n, out) != (size_t)n ||
		    fputs(nd->name, out) == EOF ||
		    fputs("):\n  Lid  Out   Destination\n       Port     Info \n",
			  out) == EOF ||
		    fwrite(w.buf, 1, w.len, out) != w.len ||
		    fprintf(out, "%d valid lids dumped \n", w.count) < 0)
			break;
	}
	if (ferror(out))
		rc = ibu_err_set(e, IBU_EIO, "write error");
	else
		ibu_progress_report(pr, "writing tables", done, rows);
out:
	free(w.buf);
	free(w.off);
	free(w.present);
	ibu_lidmap_free(&plan);
	return rc;
}
