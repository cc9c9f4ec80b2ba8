/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabric_gen.h"
#include "num.h"

uint64_t ibu_gen_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

void ibu_gen_shuffle(int *a, int n, uint64_t *st)
{
	int i;

	for (i = n - 1; i > 0; i--) {
		int j = (int)(ibu_gen_rand(st) % (uint64_t)(i + 1));
		int t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

int ibu_gen_remove_nodes(struct ibu_fabric *f, int nsw, int nhosts,
			 uint64_t seed, struct ibu_err *e)
{
	uint64_t st = seed ^ 0xd0d0ull;
	uint8_t *drop = calloc(f->num_nodes ? f->num_nodes : 1, 1);
	int tries = 0, rc;

	if (!drop)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	/* the first record always stays: with no other, nothing can go
	 * (and the draw below would divide by zero) */
	while ((nsw > 0 || nhosts > 0) && f->num_nodes > 1 &&
	       tries++ < 1000000) {
		int a = 1 + (int)(ibu_gen_rand(&st) % (uint64_t)(f->num_nodes - 1));
		int sw = ibu_node_is_switch(&f->nodes[a]);

		if (drop[a] || (sw ? nsw : nhosts) <= 0)
			continue;
		drop[a] = 1;
		if (sw)
			nsw--;
		else
			nhosts--;
	}
	if (nsw > 0 || nhosts > 0) {
		free(drop);
		return ibu_err_set(e, IBU_EINVAL, "not that many nodes to remove");
	}
	rc = ibu_fabric_remove_nodes(f, drop, e);
	free(drop);
	return rc;
}

int ibu_gen_remove_links(struct ibu_fabric *f, int count, uint64_t seed,
			 struct ibu_err *e)
{
	uint64_t st = seed ^ 0xdeadull;
	int removed = 0, tries = 0;

	while (removed < count && f->num_nodes > 0 && tries < 1000000) {
		int a = (int)(ibu_gen_rand(&st) % (uint64_t)f->num_nodes);
		struct ibu_node *n = &f->nodes[a];
		int p, b, q;

		tries++;
		if (n->num_ports < 1)
			continue;	/* no port to draw */
		p = 1 + (int)(ibu_gen_rand(&st) % (uint64_t)n->num_ports);
		if (!ibu_node_is_switch(n) || n->ports[p].peer_node < 0)
			continue;
		b = n->ports[p].peer_node;
		if (!ibu_node_is_switch(&f->nodes[b]))
			continue;
		q = n->ports[p].peer_port;
		n->ports[p].peer_node = -1;
		f->nodes[b].ports[q].peer_node = -1;
		removed++;
	}
	if (removed < count)
		return ibu_err_set(e, IBU_EINVAL,
				   "could only remove %d of %d links", removed,
				   count);
	return IBU_OK;
}

int ibu_gen_damage(struct ibu_fabric *f, const struct ibu_gen_opts *o,
		   struct ibu_err *e)
{
	int rc = IBU_OK;

	if (o->remove_links > 0)
		rc = ibu_gen_remove_links(f, o->remove_links, o->seed, e);
	if (!rc && (o->remove_switches > 0 || o->remove_hosts > 0))
		rc = ibu_gen_remove_nodes(f, o->remove_switches,
					  o->remove_hosts, o->seed, e);
	return rc;
}

int ibu_gen_check_prefix(const struct ibu_gen_opts *o, struct ibu_err *e)
{
	const char *c;

	/* names are written between quotes in net files */
	for (c = o->prefix; c && *c; c++)
		if (*c == '"' || *c == '#' || iscntrl((unsigned char)*c))
			return ibu_err_set(e, IBU_EINVAL,
					   "name prefix '%s' holds a '\"', '#' or control character",
					   o->prefix);
	return IBU_OK;
}

int ibu_gen_arg_int(const char *what, const char *text, long lo, long hi,
		    int *v, struct ibu_err *e)
{
	uint64_t x;

	if (ibu_num(text, IBU_NUM_DEC, (uint64_t)lo, (uint64_t)hi, &x, NULL))
		return ibu_err_set(e, IBU_EINVAL,
				   "%s must be an integer in %ld..%ld, not '%s'",
				   what, lo, hi, text);
	*v = (int)x;
	return IBU_OK;
}

const char *ibu_gen_arg_find(const struct ibu_gen_arg *args, int n,
			     const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(args[i].key, key))
			return args[i].value;
	return NULL;
}
