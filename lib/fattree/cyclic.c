/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "cyclic.h"

const char *ibu_cyclic_offsets_name(enum ibu_cyclic_offsets mode)
{
	return mode == IBU_OFFSETS_PAPER ? "paper" : "rotated";
}

int ibu_cyclic_offsets_parse(const char *text, enum ibu_cyclic_offsets *mode)
{
	if (!text)
		return -1;
	if (!strcmp(text, "rotated"))
		*mode = IBU_OFFSETS_ROTATED;
	else if (!strcmp(text, "paper"))
		*mode = IBU_OFFSETS_PAPER;
	else
		return -1;
	return 0;
}

unsigned ibu_cyclic_label_offset(int half, int n, int offset_digits,
				 enum ibu_cyclic_offsets mode,
				 const uint8_t *src_label,
				 const uint8_t *dst_label)
{
	unsigned o = 0, pw = 1;
	int lca = 0, j;

	if (half < 1)
		return 0;
	while (lca < n - 1 && src_label[lca] == dst_label[lca])
		lca++;		/* the common prefix */
	/* the climb from the leaf (digit 0) to level lca + 1: at level
	 * l = n-1-j the source wants up-digit s_l, so digit j is s_l - r_l
	 * (r_l = p_l rotated, 0 in paper mode) */
	for (j = 0; j < n - 1 - lca && j < offset_digits; j++) {
		int l = n - 1 - j;
		int r = mode == IBU_OFFSETS_PAPER ? 0 : dst_label[l];
		int dg = ((int)src_label[l] - r) % half;

		o += pw * (unsigned)(dg < 0 ? dg + half : dg);
		pw *= (unsigned)half;
	}
	return o;
}

/* Largest d <= n-1 with half^d <= 2^lmc: the levels the offset decides. */
static int offset_digits(int half, int n, int lmc)
{
	uint64_t pw = 1;
	int d = 0;

	while (d < n - 1 && pw * (uint64_t)half <= (1ull << lmc)) {
		pw *= (uint64_t)half;
		d++;
	}
	return d;
}

uint32_t ibu_cyclic_label_dlid(int half, int n, int lmc,
			       enum ibu_cyclic_offsets mode,
			       const uint8_t *src_label,
			       const uint8_t *dst_label,
			       uint32_t dst_base_lid)
{
	int d = offset_digits(half, n, lmc);

	return dst_base_lid + ibu_cyclic_label_offset(half, n, d, mode,
						      src_label, dst_label);
}
