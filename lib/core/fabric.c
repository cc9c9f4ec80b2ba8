/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fabric.h"

int ibu_fabric_init(struct ibu_fabric *f, const char *source)
{
	memset(f, 0, sizeof(*f));
	if (source) {
		f->source = strdup(source);
		if (!f->source)
			return IBU_ENOMEM;
	}
	return IBU_OK;
}

static void drop_index(struct ibu_fabric *f)
{
	free(f->by_name);
	free(f->by_guid);
	f->by_name = f->by_guid = NULL;
	f->indexed = 0;
}

int ibu_fabric_remove_nodes(struct ibu_fabric *f, const uint8_t *drop,
			    struct ibu_err *e)
{
	int *map = malloc((f->num_nodes ? f->num_nodes : 1) * sizeof(int));
	int i, p, n = 0;

	if (!map)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		map[i] = drop[i] ? -1 : n++;
	for (i = 0; i < f->num_nodes; i++) {
		struct ibu_node *nd = &f->nodes[i];

		if (drop[i]) {
			free(nd->name);
			free(nd->ports);
			continue;
		}
		for (p = 0; p <= nd->num_ports; p++) {
			struct ibu_port *pt = &nd->ports[p];

			if (pt->peer_node < 0)
				continue;
			pt->peer_node = map[pt->peer_node];
			if (pt->peer_node < 0)
				pt->peer_port = 0;
		}
		f->nodes[map[i]] = *nd;
	}
	f->num_nodes = n;
	free(map);
	drop_index(f);
	return IBU_OK;
}

void ibu_fabric_free(struct ibu_fabric *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->num_nodes; i++) {
		free(f->nodes[i].name);
		free(f->nodes[i].ports);
	}
	free(f->nodes);
	free(f->source);
	drop_index(f);
	memset(f, 0, sizeof(*f));
}

int ibu_fabric_add_node(struct ibu_fabric *f, enum ibu_node_type type,
			const char *name, uint64_t guid, int num_ports,
			int *idx, struct ibu_err *e)
{
	struct ibu_node *n;
	int p;

	if (num_ports < 1 || num_ports > IBU_MAX_PORTS)
		return ibu_err_set(e, IBU_EINVAL,
				   "node '%s': %d ports (must be 1..%d)",
				   name ? name : "?", num_ports, IBU_MAX_PORTS);
	if (f->num_nodes == f->cap_nodes) {
		int cap = f->cap_nodes ? 2 * f->cap_nodes : 64;
		struct ibu_node *nn = realloc(f->nodes, cap * sizeof(*nn));

		if (!nn)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		f->nodes = nn;
		f->cap_nodes = cap;
	}
	n = &f->nodes[f->num_nodes];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->guid = guid;
	n->num_ports = num_ports;
	/* names come from input (a host sets its own node description) */
	n->name = ibu_escape_dup(name ? name : "");
	n->ports = calloc(num_ports + 1, sizeof(*n->ports));
	if (!n->name || !n->ports) {
		free(n->name);
		free(n->ports);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (p = 0; p <= num_ports; p++) {
		n->ports[p].peer_node = -1;
		n->ports[p].guid = type == IBU_NODE_SWITCH ? guid : guid + p;
	}
	if (idx)
		*idx = f->num_nodes;
	f->num_nodes++;
	drop_index(f);
	return IBU_OK;
}

int ibu_fabric_link(struct ibu_fabric *f, int a, int pa, int b, int pb,
		    struct ibu_err *e)
{
	struct ibu_node *na, *nb;

	if (a < 0 || a >= f->num_nodes || b < 0 || b >= f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "link to unknown node");
	na = &f->nodes[a];
	nb = &f->nodes[b];
	if (pa < 1 || pa > na->num_ports)
		return ibu_err_set(e, IBU_EINVAL, "'%s' has no port %d",
				   na->name, pa);
	if (pb < 1 || pb > nb->num_ports)
		return ibu_err_set(e, IBU_EINVAL, "'%s' has no port %d",
				   nb->name, pb);
	if (a == b && pa == pb)
		return ibu_err_set(e, IBU_EINVAL, "'%s' port %d cabled to itself",
				   na->name, pa);
	if ((na->ports[pa].peer_node >= 0 &&
	     (na->ports[pa].peer_node != b || na->ports[pa].peer_port != pb)) ||
	    (nb->ports[pb].peer_node >= 0 &&
	     (nb->ports[pb].peer_node != a || nb->ports[pb].peer_port != pa)))
		return ibu_err_set(e, IBU_EINVAL,
				   "'%s'[%d] - '%s'[%d]: port already cabled elsewhere",
				   na->name, pa, nb->name, pb);
	na->ports[pa].peer_node = b;
	na->ports[pa].peer_port = pb;
	nb->ports[pb].peer_node = a;
	nb->ports[pb].peer_port = pa;
	return IBU_OK;
}

/* qsort has no context argument in C11: sort (key, index) pairs instead. */
struct name_key {
	const char *name;
	int idx;
};
struct guid_key {
	uint64_t guid;
	int idx;
};

static int cmp_name(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->idx - y->idx;
}

static int cmp_guid(const void *a, const void *b)
{
	const struct guid_key *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->idx - y->idx;
}

int ibu_fabric_index(struct ibu_fabric *f, struct ibu_err *e)
{
	struct name_key *nk;
	struct guid_key *gk;
	int i, n = f->num_nodes;

	drop_index(f);
	nk = malloc((n ? n : 1) * sizeof(*nk));
	gk = malloc((n ? n : 1) * sizeof(*gk));
	f->by_name = malloc((n ? n : 1) * sizeof(int));
	f->by_guid = malloc((n ? n : 1) * sizeof(int));
	if (!nk || !gk || !f->by_name || !f->by_guid) {
		free(nk);
		free(gk);
		drop_index(f);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		nk[i].name = f->nodes[i].name;
		nk[i].idx = i;
		gk[i].guid = f->nodes[i].guid;
		gk[i].idx = i;
	}
	qsort(nk, n, sizeof(*nk), cmp_name);
	qsort(gk, n, sizeof(*gk), cmp_guid);
	for (i = 0; i < n; i++) {
		f->by_name[i] = nk[i].idx;
		f->by_guid[i] = gk[i].idx;
	}
	free(nk);
	free(gk);
	f->indexed = 1;
	return IBU_OK;
}

static int find_name(const struct ibu_fabric *f, const char *name);

/* Names are stored escaped (ibu_escape): a name with control bytes from
 * another input is looked up in the same form. */
int ibu_fabric_find_name(const struct ibu_fabric *f, const char *name)
{
	char *esc;
	int i;

	if (!strpbrk(name, "\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x0e\x0f"
		     "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f\xc2"))
		return find_name(f, name);
	esc = ibu_escape_dup(name);
	i = esc ? find_name(f, esc) : -1;
	free(esc);
	return i;
}

static int find_name(const struct ibu_fabric *f, const char *name)
{
	int lo = 0, hi = f->num_nodes - 1, i;

	if (!f->indexed) {
		for (i = 0; i < f->num_nodes; i++)
			if (!strcmp(f->nodes[i].name, name))
				return i;
		return -1;
	}
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(f->nodes[f->by_name[mid]].name, name);

		if (c == 0) {
			while (mid > 0 &&
			       !strcmp(f->nodes[f->by_name[mid - 1]].name, name))
				mid--;
			return f->by_name[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int ibu_fabric_find_guid(const struct ibu_fabric *f, uint64_t guid)
{
	int lo = 0, hi = f->num_nodes - 1, i;

	if (!f->indexed) {
		for (i = 0; i < f->num_nodes; i++)
			if (f->nodes[i].guid == guid)
				return i;
		return -1;
	}
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		uint64_t g = f->nodes[f->by_guid[mid]].guid;

		if (g == guid)
			return f->by_guid[mid];
		if (g < guid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int ibu_fabric_find_port_guid(const struct ibu_fabric *f, uint64_t port_guid,
			      int *port)
{
	int node, p;

	/* ibsim and most HCAs use node GUID + port number for port GUIDs */
	for (p = 0; p <= IBU_MAX_PORTS && (uint64_t)p <= port_guid; p++) {
		node = ibu_fabric_find_guid(f, port_guid - p);
		if (node < 0)
			continue;
		if (ibu_node_is_switch(&f->nodes[node])) {
			if (p == 0) {
				if (port)
					*port = 0;
				return node;
			}
			continue;
		}
		if (p <= f->nodes[node].num_ports &&
		    f->nodes[node].ports[p].guid == port_guid) {
			if (port)
				*port = p;
			return node;
		}
	}
	/* otherwise a full scan */
	for (node = 0; node < f->num_nodes; node++) {
		const struct ibu_node *n = &f->nodes[node];

		if (ibu_node_is_switch(n)) {
			if (n->guid == port_guid) {
				if (port)
					*port = 0;
				return node;
			}
			continue;
		}
		for (p = 1; p <= n->num_ports; p++)
			if (n->ports[p].guid == port_guid) {
				if (port)
					*port = p;
				return node;
			}
	}
	return -1;
}

static int ports_same(const struct ibu_port *a, const struct ibu_port *b)
{
	return a->peer_node == b->peer_node && a->peer_port == b->peer_port &&
	       a->guid == b->guid && a->lid == b->lid && a->lmc == b->lmc;
}

int ibu_fabric_same(const struct ibu_fabric *a, const struct ibu_fabric *b)
{
	int i, p;

	if (a->num_nodes != b->num_nodes)
		return 0;
	for (i = 0; i < a->num_nodes; i++) {
		const struct ibu_node *x = &a->nodes[i], *y = &b->nodes[i];

		if (x->type != y->type || x->guid != y->guid ||
		    x->num_ports != y->num_ports ||
		    strcmp(x->name ? x->name : "", y->name ? y->name : ""))
			return 0;
		for (p = 0; p <= x->num_ports; p++)
			if (!ports_same(&x->ports[p], &y->ports[p]))
				return 0;
	}
	return 1;
}

int ibu_fabric_count_switches(const struct ibu_fabric *f)
{
	int i, c = 0;

	for (i = 0; i < f->num_nodes; i++)
		c += ibu_node_is_switch(&f->nodes[i]);
	return c;
}

int ibu_fabric_count_endports(const struct ibu_fabric *f)
{
	int i, p, c = 0;

	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		if (ibu_node_is_switch(n))
			continue;
		for (p = 1; p <= n->num_ports; p++)
			c += n->ports[p].peer_node >= 0;
	}
	return c;
}

const struct ibu_port *ibu_fabric_lid_port(const struct ibu_fabric *f,
					   int node, int port)
{
	const struct ibu_node *n = &f->nodes[node];

	if (ibu_node_is_switch(n))
		return &n->ports[0];
	if (port < 1 || port > n->num_ports)
		return NULL;
	return &n->ports[port];
}

int ibu_fabric_foreach_lid_port(const struct ibu_fabric *f,
				int (*fn)(void *ctx, int node, int port,
					  const struct ibu_port *pt),
				void *ctx)
{
	int i, port, rc;

	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		/* a switch's LID lives on port 0, a CA's on its ports */
		int first = ibu_node_is_switch(n) ? 0 : 1;
		int last = ibu_node_is_switch(n) ? 0 : n->num_ports;

		for (port = first; port <= last; port++) {
			if (!n->ports[port].lid)
				continue;
			rc = fn(ctx, i, port, &n->ports[port]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int top_lid(void *ctx, int node, int port, const struct ibu_port *pt)
{
	uint32_t *max = ctx, top = pt->lid + (1u << pt->lmc) - 1;

	(void)node;
	(void)port;
	if (top > *max)
		*max = top;
	return 0;
}

uint32_t ibu_fabric_max_lid(const struct ibu_fabric *f)
{
	uint32_t max = 0;

	ibu_fabric_foreach_lid_port(f, top_lid, &max);
	return max;
}

void ibu_fabric_clear_lids(struct ibu_fabric *f)
{
	int n, p;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 0; p <= f->nodes[n].num_ports; p++) {
			f->nodes[n].ports[p].lid = 0;
			f->nodes[n].ports[p].lmc = 0;
		}
}

struct guid_use {
	uint64_t guid;
	int line;
	int node;
	int port;		/* -1 for the node GUID */
};

static int cmp_use(const void *a, const void *b)
{
	const struct guid_use *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->port - y->port;
}

static int dup_error(const struct ibu_fabric *f, const struct guid_use *first,
		     const struct guid_use *again, const char *what,
		     struct ibu_err *e)
{
	const char *src = f->source ? f->source : "fabric";
	const struct ibu_node *a = &f->nodes[again->node];
	const struct ibu_node *b = &f->nodes[first->node];

	if (again->line)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: %s GUID 0x%016" PRIx64 " of '%s' is already used by '%s' (line %d)",
				   src, again->line, what, again->guid, a->name,
				   b->name, first->line);
	return ibu_err_set(e, IBU_EPARSE,
			   "%s: %s GUID 0x%016" PRIx64 " of '%s' is already used by '%s'",
			   src, what, again->guid, a->name, b->name);
}

static int find_dups(const struct ibu_fabric *f, struct guid_use *u, int n,
		     const char *what, struct ibu_err *e)
{
	int i;

	if (n < 2)
		return IBU_OK;
	qsort(u, (size_t)n, sizeof(*u), cmp_use);
	for (i = 1; i < n; i++)
		if (u[i].guid == u[i - 1].guid)
			return dup_error(f, &u[i - 1], &u[i], what, e);
	return IBU_OK;
}

int ibu_fabric_check_guids(const struct ibu_fabric *f, struct ibu_err *e)
{
	struct guid_use *u;
	size_t total = 0;
	int i, p, n = 0, rc;

	for (i = 0; i < f->num_nodes; i++)
		total += ibu_node_is_switch(&f->nodes[i]) ? 1 :
			 (size_t)f->nodes[i].num_ports;
	u = malloc((total > (size_t)f->num_nodes ? total : (size_t)f->num_nodes) *
		   sizeof(*u) + sizeof(*u));
	if (!u)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		u[n].guid = f->nodes[i].guid;
		u[n].line = f->nodes[i].line;
		u[n].node = i;
		u[n].port = -1;
		n++;
	}
	rc = find_dups(f, u, n, "node", e);
	if (rc)
		goto out;
	n = 0;
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *nd = &f->nodes[i];

		if (ibu_node_is_switch(nd)) {
			u[n].guid = nd->guid;
			u[n].line = nd->line;
			u[n].node = i;
			u[n].port = 0;
			n++;
			continue;
		}
		for (p = 1; p <= nd->num_ports; p++) {
			if (nd->ports[p].peer_node < 0)
				continue;
			u[n].guid = nd->ports[p].guid;
			u[n].line = nd->ports[p].line ? nd->ports[p].line :
				    nd->line;
			u[n].node = i;
			u[n].port = p;
			n++;
		}
	}
	rc = find_dups(f, u, n, "port", e);
out:
	free(u);
	return rc;
}
