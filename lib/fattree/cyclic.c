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

/* r_l(D): what the destination adds to the offset digit at level l. */
static int rotation(enum ibu_cyclic_offsets mode, const uint8_t *dst, int level)
{
	return mode == IBU_OFFSETS_PAPER ? 0 : dst[level];
}

/* Lowest common ancestors' level of two labels (common prefix, <= n-1). */
static int label_lca(int n, const uint8_t *a, const uint8_t *b)
{
	int l = 0;

	while (l < n - 1 && a[l] == b[l])
		l++;
	return l;
}

unsigned ibu_cyclic_label_offset(int half, int n, int offset_digits,
				 enum ibu_cyclic_offsets mode,
				 const uint8_t *src_label,
				 const uint8_t *dst_label)
{
	int lca = label_lca(n, src_label, dst_label), j;
	unsigned o = 0, pw = 1;

	if (half < 1)
		return 0;
	/* the climb from the leaf (digit 0) to level lca + 1: at level
	 * l = n-1-j the source wants up-digit s_l, so digit j is s_l - r_l */
	for (j = 0; j < n - 1 - lca && j < offset_digits; j++) {
		int l = n - 1 - j;
		int dg = ((int)src_label[l] - rotation(mode, dst_label, l)) % half;

		o += pw * (unsigned)(dg < 0 ? dg + half : dg);
		pw *= (unsigned)half;
	}
	return o;
}

uint32_t ibu_cyclic_label_dlid(int half, int n, int lmc,
			       enum ibu_cyclic_offsets mode,
			       const uint8_t *src_label,
			       const uint8_t *dst_label,
			       uint32_t dst_base_lid)
{
	int d = ibu_lid_offset_digits(half, n, lmc);

	return dst_base_lid + ibu_cyclic_label_offset(half, n, d, mode,
						      src_label, dst_label);
}

int ibu_cyclic_up_digit(const struct ibu_ibft *t, int offset_digits,
			enum ibu_cyclic_offsets mode, int level, uint32_t pid,
			unsigned offset)
{
	const uint8_t *p = t->ep[pid].p;
	int j = t->n - 1 - level, i;

	if (j < offset_digits) {
		for (i = 0; i < j; i++)
			offset /= (unsigned)t->half;
		return (int)((offset % (unsigned)t->half +
			      (unsigned)rotation(mode, p, level)) %
			     (unsigned)t->half);
	}
	/* LMC set too small for this level: D-mod-k on the destination */
	return p[level];
}

int ibu_cyclic_paper_port(const struct ibu_ibft *t, int offset_digits,
			  enum ibu_cyclic_offsets mode, int sw, uint32_t pid,
			  unsigned offset)
{
	int l = t->sw[sw].level;

	if (l == 0 || ibu_ibft_below(t, sw, (int)pid))
		return t->ep[pid].p[l] + 1;				/* Eq. 1 */
	return t->half + 1 + ibu_cyclic_up_digit(t, offset_digits, mode, l,
						 pid, offset);		/* Eq. 2 */
}

unsigned ibu_cyclic_offset(const struct ibu_ibft *t, int offset_digits,
			   enum ibu_cyclic_offsets mode, uint32_t src_pid,
			   uint32_t dst_pid)
{
	return ibu_cyclic_label_offset(t->half, t->n, offset_digits, mode,
				       t->ep[src_pid].p, t->ep[dst_pid].p);
}

int ibu_cyclic_turn_switch(const struct ibu_ibft *t, int offset_digits,
			   enum ibu_cyclic_offsets mode, uint32_t src_pid,
			   uint32_t dst_pid, unsigned offset)
{
	const uint8_t *s = t->ep[src_pid].p;
	uint8_t w[IBU_IBFT_MAX_N];
	int lca = ibu_ibft_lca_level(t, (int)src_pid, (int)dst_pid), l, i = 0;

	/* A_lca = SW<s0 .. s(lca-1) u(n-1) .. u(lca+1), lca> */
	for (l = 0; l < lca; l++)
		w[i++] = s[l];
	for (l = t->n - 1; l > lca; l--)
		w[i++] = (uint8_t)ibu_cyclic_up_digit(t, offset_digits, mode, l,
						      dst_pid, offset);
	return ibu_ibft_find_switch(t, lca, w);
}
