/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "rails.h"

/* length of the host part: up to the first blank */
static size_t host_len(const char *s)
{
	return strcspn(s, " \t");
}

/* device parts compared as names with numbers (mlx5_9 < mlx5_10) */
static int dev_cmp(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la != lb ? (la < lb ? -1 : 1) : strcmp(a, b);
}

static int server_of(const char *const *names, const int *first, int ns,
		     const char *s)
{
	int k;

	for (k = 0; k < ns; k++)
		if (host_len(names[first[k]]) == host_len(s) &&
		    !strncmp(names[first[k]], s, host_len(s)))
			return k;
	return -1;
}

int ibu_rails_learn(const char *const *names, int num, struct ibu_rails *r,
		    struct ibu_err *e)
{
	int i, j, k;

	memset(r, 0, sizeof(*r));
	r->server = malloc((num ? (size_t)num : 1) * sizeof(int));
	r->rail = malloc((num ? (size_t)num : 1) * sizeof(int));
	r->first = malloc((num ? (size_t)num : 1) * sizeof(int));
	if (!r->server || !r->rail || !r->first) {
		ibu_rails_free(r);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < num; i++) {
		k = server_of(names, r->first, r->num_servers, names[i]);
		if (k < 0) {
			k = r->num_servers++;
			r->first[k] = i;
		}
		r->server[i] = k;
	}
	/* rail: the rank of the HCA's device part among its server's */
	for (i = 0; i < num; i++) {
		const char *d = names[i] + host_len(names[i]);

		r->rail[i] = 0;
		for (j = 0; j < num; j++)
			if (j != i && r->server[j] == r->server[i] &&
			    dev_cmp(names[j] + host_len(names[j]), d) < 0)
				r->rail[i]++;
		if (r->rail[i] + 1 > r->num_rails)
			r->num_rails = r->rail[i] + 1;
	}
	return IBU_OK;
}

int ibu_rails_major(const struct ibu_rails *r, int num, int *out)
{
	int rail, i, n = 0;

	for (rail = 0; rail < r->num_rails; rail++)
		for (i = 0; i < num; i++)
			if (r->rail[i] == rail)
				out[n++] = i;
	return n;
}

void ibu_rails_free(struct ibu_rails *r)
{
	free(r->server);
	free(r->rail);
	free(r->first);
	memset(r, 0, sizeof(*r));
}
