/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Cyclic unicast routing on IBFT(m,n) ([Zhou07], sect. 3.2 and 3.3.1):
 * the offset modes and the DLID rule on labels alone. The tables are
 * written by the PGFT router with the paper's labels (struct
 * ibu_pgft_paper, lib/fattree/pgft.h); pairs' offsets and turning
 * switches come from ibu_pgft_offset_rule and ibu_pgft_turn_rule.
 *
 * Notation: k = m/2; end port P(p), p = p0 p1 .. p(n-1) (p0 < m, the
 * others < k); LMC set of 2^LMC LIDs, LID = base + o; d = offset_digits =
 * the largest d <= n-1 with k^d <= 2^LMC; digit_j(o) =
 * floor(o / k^j) mod k, j = 0 (least significant) .. d-1.
 *
 * At SW<w,l>, for a LID of destination D = P(p) with offset o:
 *   D below (w0..w(l-1) == p0..p(l-1)): paper port p_l + 1       (Eq. 1)
 *   otherwise: paper port k + 1 + u_l(D, o)                        (Eq. 2)
 * with the up-digit, j = n-1-l:
 *   j <  d:  u_l(D, o) = (digit_j(o) + r_l(D)) mod k
 *   j >= d:  u_l(D, o) = p_l          (LMC set too small: D-mod-k)
 *   r_l(D) = p_l  in IBU_OFFSETS_ROTATED (default)
 *   r_l(D) = 0    in IBU_OFFSETS_PAPER (exactly Eq. 2 of the paper)
 *
 * Why the properties hold. Going up from SW<w,l> through up-digit u, the
 * parent's label is w without its digit w(l-1), followed by u (the link
 * rule, sect. 2.2). So a packet that leaves the leaf of S = P(s) and
 * climbs with up-digits u_(n-1), u_(n-2), ... is, at level l, at
 *     A_l = SW<s0 .. s(l-1) u_(n-1) u_(n-2) .. u_(l+1), l>,
 * and a descent toward D from level L passes, at each level l > L,
 *     B_l = SW<p0 .. p(l-1) u_(n-1) .. u_(l+1), l>.
 * S and D's lowest common ancestors are at level L = the length of their
 * common prefix (at most n-1): the route climbs with u_(n-1) .. u_(L+1),
 * turns at A_L and descends.
 *
 * 1. Offset 0 is D-mod-k (rotated mode). u_l(D, 0) = p_l: the base LID of
 *    D climbs toward SW<p(n-1) .. p1, 0>, its own top switch. The up-link
 *    a route leaves level l by is named by (s0..s(l-1), p_l..p(n-1)), i.e.
 *    floor(PID(S) / k^(n-l)) and PID(D) mod k^(n-l). In a shift
 *    permutation PID(D) = PID(S) + c mod 2k^n, so the link fixes PID(S)
 *    mod k^(n-l) too, hence all of PID(S): at most one flow per up-link.
 *    A down-link B_(l-1) -> B_l (or leaf -> D) is named by all digits of
 *    D: one destination per down-link in any permutation. Shifts are
 *    contention-free; in all-to-all on base LIDs an up-link at level l >= 1
 *    carries k^(n-l) sources x (2k^l - 1) destinations, the down-link into
 *    B_l the 2k^n - k^(n-l) sources outside its sub-tree: the busiest links
 *    are the HCA links (2k^n - 1; IBFT(8,3): 127, switch-to-switch at most
 *    124). In paper mode every base LID takes up-digit 0: all of it
 *    climbs one link per switch.
 * 2. The LID set reaches distinct lca switches: A_L is named by
 *    u_(n-1) .. u_(L+1), each a bijection of one offset digit, so the
 *    offsets o < k^d reach distinct ones; o >= k^d repeats o mod k^d
 *    (IBFT(6,3) at LMC 4: 16 LIDs, 9 paths).
 * 3. A source climbs one chain with its cyclic offset: digit j = n-1-l of
 *    ibu_cyclic_label_offset() is s_l - r_l(D) mod k, so u_l = s_l
 *    whatever D is, and A_l = SW<s0..s(l-1) s(n-1)..s(l+1), l> depends on
 *    S and l only (the same chain in both modes; only the DLID that
 *    selects it differs). Descending switches are ancestors of D but not
 *    of S, so they never meet the chain, and B_l is reached from one
 *    parent: the routes of a source form a tree. This holds for the d
 *    lowest climbs; above them u_l = p_l comes from the destination.
 * 4. A cyclic group uses one descent. CG(D, L, y) (sect. 3.2) = the
 *    sources whose lca with D is at level L and whose suffix
 *    s(L+1)..s(n-1) is y: the offset depends on y and D only, so the
 *    group uses one DLID, one turning switch A_L and one descent.
 */
#ifndef IBU_CYCLIC_H
#define IBU_CYCLIC_H

#include <stdint.h>

/* How the offsets of a LID set choose up-ports (see above). */
enum ibu_cyclic_offsets {
	IBU_OFFSETS_ROTATED = 0,	/* r_l(D) = p_l: offset 0 is D-mod-k */
	IBU_OFFSETS_PAPER = 1,		/* r_l(D) = 0: the paper's Eq. 2 */
};

/* "rotated" / "paper"; parse returns 0, or -1 for anything else. */
const char *ibu_cyclic_offsets_name(enum ibu_cyclic_offsets mode);
int ibu_cyclic_offsets_parse(const char *text, enum ibu_cyclic_offsets *mode);

/*
 * The rule an MPI / UCX integrator needs, on labels alone (no fabric):
 * the DLID offset source label s[0..n-1] should use toward destination
 * label p[0..n-1] of an IBFT(2*half, n) whose LMC sets give offset_digits
 * up-digits (the largest d <= n-1 with half^d <= 2^lmc):
 *   o = sum over j < min(d, n-1-L) of k^j * ((s_l - r_l(p)) mod k),
 *   l = n-1-j, L = lca level of s and p.
 * Same leaf (L = n-1): 0. With it the source's routes climb one chain.
 * ibu_cyclic_label_dlid() adds the offset to the destination's base LID.
 */
unsigned ibu_cyclic_label_offset(int half, int n, int offset_digits,
				 enum ibu_cyclic_offsets mode,
				 const uint8_t *src_label,
				 const uint8_t *dst_label);
uint32_t ibu_cyclic_label_dlid(int half, int n, int lmc,
			       enum ibu_cyclic_offsets mode,
			       const uint8_t *src_label,
			       const uint8_t *dst_label,
			       uint32_t dst_base_lid);

#endif
