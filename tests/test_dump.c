/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* LFT dump reader and writer, on real dumps captured from ibsim + OpenSM. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "dump.h"
#include "netfile.h"
#include "gen.h"
#include "lidmap.h"
#include "cyclic_util.h"

#define FX(name) FIXTURES_DIR "/" name

static void read_net(const char *path, struct ibu_fabric *f)
{
	struct ibu_err e = { 0 };
	int rc = ibu_netfile_read(path, f, &e);

	ck_assert_msg(rc == 0, "%s: %s", path, e.msg);
}

static int parse_text(const char *text, struct ibu_dump *d, struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_dump_parse_stream(in, "t.dump", d, e);
	fclose(in);
	return rc;
}

/* Writes f + lft to a string (caller frees). */
static char *write_text(const struct ibu_fabric *f, const struct ibu_lft *l)
{
	char *buf = NULL;
	size_t len = 0;
	struct ibu_err e = { 0 };
	FILE *out = open_memstream(&buf, &len);
	int rc;

	ck_assert_ptr_nonnull(out);
	rc = ibu_dump_write_lfts(out, f, l, &e);
	fclose(out);
	ck_assert_msg(rc == 0, "write: %s", e.msg);
	return buf;
}

static const struct ibu_dump_port *port_by_guid(const struct ibu_dump *d,
						uint64_t guid)
{
	int i;

	for (i = 0; i < d->num_ports; i++)
		if (d->port[i].guid == guid)
			return &d->port[i];
	return NULL;
}

START_TEST(parse_dump_lfts)
{
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	const struct ibu_dump_port *p;
	int rc, s;

	rc = ibu_dump_parse(FX("ft43-lmc2.lfts"), &d, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(d.num_switches, 20);
	ck_assert_uint_eq(d.max_lid, 0x6b);
	/* 16 end ports with 4 LIDs each, 20 switches with one */
	ck_assert_int_eq(d.num_ports, 36);
	p = port_by_guid(&d, 0x100001);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->base, 4);
	ck_assert_uint_eq(p->lmc, 2);
	ck_assert_int_eq(p->explicit_set, 1);
	ck_assert_int_eq(p->type, IBU_NODE_CA);
	ck_assert_str_eq(p->name, "H-0.0.0");
	p = port_by_guid(&d, 0x200000);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->base, 8);
	ck_assert_uint_eq(p->lmc, 0);
	ck_assert_int_eq(p->type, IBU_NODE_SWITCH);
	ck_assert_int_eq(d.owner[5], d.owner[4]);
	ck_assert_int_eq(d.owner[0xb], -1);
	s = ibu_dump_find_switch(&d, 0x200013);
	ck_assert_int_eq(s, 0);
	ck_assert_str_eq(d.sw[s].name, "S2-3.1");
	ck_assert_int_eq(d.sw[s].line, 1);
	ck_assert_uint_eq(d.sw[s].port[4], 3);
	ck_assert_uint_eq(d.sw[s].port[5], 4);
	ck_assert_uint_eq(d.sw[s].port[0xb], IBU_NO_PATH);
	ibu_dump_free(&d);
}
END_TEST

/* OpenSM's own dump of the same routing holds exactly the same tables and
 * the same LID sets, although it names every LID's owner in full. */
START_TEST(parse_opensm_dump_same_as_dump_lfts)
{
	struct ibu_dump a, b;
	struct ibu_err e = { 0 };
	int rc, i, j;

	rc = ibu_dump_parse(FX("ft43-lmc2.lfts"), &a, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	rc = ibu_dump_parse(FX("ft43-lmc2.osm-lfts.dump"), &b, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(b.num_switches, 20);
	ck_assert_int_eq(b.num_ports, a.num_ports);
	ck_assert_str_eq(b.sw[0].name, "S0-0.0");
	ck_assert_uint_eq(b.sw[0].lid, 8);
	for (i = 0; i < a.num_ports; i++) {
		const struct ibu_dump_port *p = port_by_guid(&b, a.port[i].guid);

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(p->base, a.port[i].base);
		ck_assert_uint_eq(p->lmc, a.port[i].lmc);
		ck_assert_int_eq(p->explicit_set, 0);
	}
	for (i = 0; i < a.num_switches; i++) {
		uint32_t lid;

		j = ibu_dump_find_switch(&b, a.sw[i].guid);
		ck_assert_int_ge(j, 0);
		for (lid = 1; lid <= 0x6b; lid++)
			ck_assert_uint_eq(a.sw[i].port[lid], b.sw[j].port[lid]);
	}
	ibu_dump_free(&a);
	ibu_dump_free(&b);
}
END_TEST

START_TEST(read_applies_lids)
{
	struct ibu_fabric f;
	struct ibu_lft l;
	struct ibu_err e = { 0 };
	int h, s, rc;

	read_net(FX("ft43.net"), &f);
	rc = ibu_dump_read_lfts(FX("ft43-lmc2.lfts"), &f, &l, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	h = ibu_fabric_find_name(&f, "H-0.0.0");
	s = ibu_fabric_find_name(&f, "S2-3.1");
	ck_assert_int_ge(h, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_uint_eq(f.nodes[h].ports[1].lid, 4);
	ck_assert_uint_eq(f.nodes[h].ports[1].lmc, 2);
	ck_assert_uint_eq(f.nodes[ibu_fabric_find_name(&f, "S0-0.0")].ports[0].lid, 8);
	ck_assert_uint_eq(l.max_lid, 0x6b);
	ck_assert_uint_eq(ibu_lft_get(&l, s, 4), 3);
	ck_assert_uint_eq(ibu_lft_get(&l, s, 5), 4);
	ck_assert_uint_eq(ibu_lft_get(&l, s, 0xb), IBU_NO_PATH);
	ck_assert_uint_eq(ibu_fabric_max_lid(&f), 0x6b);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);
}
END_TEST

/* An ibnetdiscover file as the fabric, an OpenSM dump, LMC 1. */
START_TEST(read_ibnetdiscover_fabric)
{
	struct ibu_fabric f;
	struct ibu_lft l;
	struct ibu_err e = { 0 };
	int h, s, rc;

	read_net(FX("2sw2path4hca-lmc1.ibnd"), &f);
	rc = ibu_dump_read_lfts(FX("2sw2path4hca-lmc1.osm-lfts.dump"), &f, &l,
				&e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	h = ibu_fabric_find_name(&f, "Hca3");
	s = ibu_fabric_find_name(&f, "Switch1");
	ck_assert_int_ge(h, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_uint_eq(f.nodes[h].ports[1].lid, 8);
	ck_assert_uint_eq(f.nodes[h].ports[1].lmc, 1);
	ck_assert_uint_eq(ibu_lft_get(&l, s, 8), 2);
	ck_assert_uint_eq(ibu_lft_get(&l, s, 1), 0);
	ck_assert_uint_eq(ibu_lft_get(&l, s, 7), 5);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);
}
END_TEST

/* Splits text into lines (modifies it); returns the count. */
static int lines_of(char *text, char **v, int max)
{
	int n = 0;
	char *s = text, *nl;

	while (*s && n < max) {
		nl = strchr(s, '\n');
		v[n++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return n;
}

/*
 * What we write is what dump_lfts prints, line for line, except for the
 * header's address (a LID instead of the DR path) and the table order.
 */
static void same_as_real(const char *net, const char *dump, int nlines)
{
	struct ibu_fabric f;
	struct ibu_lft l;
	struct ibu_err e = { 0 };
	char *ours, *real = NULL, **ov, **rv;
	size_t cap = 0;
	FILE *in;
	int no, nr, i, j, k, blocks = 0, rc;

	read_net(net, &f);
	rc = ibu_dump_read_lfts(dump, &f, &l, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ours = write_text(&f, &l);
	in = fopen(dump, "r");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_gt(getdelim(&real, &cap, '\0', in), 0);
	fclose(in);
	ov = calloc(nlines, sizeof(*ov));
	rv = calloc(nlines, sizeof(*rv));
	no = lines_of(ours, ov, nlines);
	nr = lines_of(real, rv, nlines);
	for (i = 0; i < nr; i++) {
		const char *g = strstr(rv[i], " guid 0x");

		if (strncmp(rv[i], "Unicast lids", 12))
			continue;
		for (j = 0; j < no; j++)
			if (!strncmp(ov[j], "Unicast lids", 12) &&
			    !strcmp(strstr(ov[j], " guid 0x"), g))
				break;
		ck_assert_msg(j < no, "no table for '%s'", rv[i]);
		for (k = 1; i + k < nr && !strstr(rv[i + k], "lids dumped"); k++) {
			ck_assert_int_lt(j + k, no);
			ck_assert_str_eq(ov[j + k], rv[i + k]);
		}
		ck_assert_int_lt(j + k, no);
		ck_assert_str_eq(ov[j + k], rv[i + k]);
		blocks++;
	}
	ck_assert_int_eq(blocks, ibu_fabric_count_switches(&f));
	free(ov);
	free(rv);
	free(ours);
	free(real);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);
}

START_TEST(write_matches_dump_lfts)
{
	same_as_real(FX("ft43.net"), FX("ft43-lmc2.lfts"), 4000);
	same_as_real(FX("2sw2path4hca.net"), FX("2sw2path4hca-lmc1.lfts"), 100);
	same_as_real(FX("2sw2path4hca.net"), FX("2sw2path4hca-lmc0.lfts"), 100);
}
END_TEST

/* write -> read into a fresh fabric -> write: identical tables, LIDs, text */
START_TEST(round_trip_exact)
{
	static const char *const dumps[] = {
		FX("ft43-lmc2.osm-lfts.dump"), FX("2sw2path4hca-lmc1.lfts"),
	};
	static const char *const nets[] = {
		FX("ft43.net"), FX("2sw2path4hca.net"),
	};
	unsigned k;

	for (k = 0; k < 2; k++) {
		struct ibu_fabric f, g;
		struct ibu_lft l, m;
		struct ibu_dump d;
		struct ibu_err e = { 0 };
		char *t1, *t2;
		int rc, i, p;

		read_net(nets[k], &f);
		rc = ibu_dump_read_lfts(dumps[k], &f, &l, &e);
		ck_assert_msg(rc == 0, "%s", e.msg);
		t1 = write_text(&f, &l);
		read_net(nets[k], &g);
		rc = parse_text(t1, &d, &e);
		ck_assert_msg(rc == 0, "%s", e.msg);
		rc = ibu_dump_apply(&d, &g, &m, NULL, &e);
		ck_assert_msg(rc == 0, "%s", e.msg);
		ck_assert_uint_eq(m.max_lid, l.max_lid);
		ck_assert_int_eq(ibu_lft_count_diff(&l, &m), 0);
		for (i = 0; i < f.num_nodes; i++)
			for (p = 0; p <= f.nodes[i].num_ports; p++) {
				ck_assert_uint_eq(f.nodes[i].ports[p].lid,
						  g.nodes[i].ports[p].lid);
				ck_assert_uint_eq(f.nodes[i].ports[p].lmc,
						  g.nodes[i].ports[p].lmc);
			}
		t2 = write_text(&g, &m);
		ck_assert_str_eq(t1, t2);
		free(t1);
		free(t2);
		ibu_dump_free(&d);
		ibu_lft_free(&l);
		ibu_lft_free(&m);
		ibu_fabric_free(&f);
		ibu_fabric_free(&g);
	}
}
END_TEST

/* A changed entry survives the round trip too. */
START_TEST(round_trip_edited)
{
	struct ibu_fabric f, g;
	struct ibu_lft l, m;
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	char *t;
	int s, rc;

	read_net(FX("2sw2path4hca.net"), &f);
	rc = ibu_dump_read_lfts(FX("2sw2path4hca-lmc1.lfts"), &f, &l, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	s = ibu_fabric_find_name(&f, "Switch1");
	l.row[s][3] = IBU_NO_PATH;	/* Hca1's second LID: base stays known */
	l.row[s][9] = 5;
	t = write_text(&f, &l);
	read_net(FX("2sw2path4hca.net"), &g);
	rc = parse_text(t, &d, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	rc = ibu_dump_apply(&d, &g, &m, NULL, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_lft_count_diff(&l, &m), 0);
	ck_assert_uint_eq(ibu_lft_get(&m, s, 9), 5);
	free(t);
	ibu_dump_free(&d);
	ibu_lft_free(&l);
	ibu_lft_free(&m);
	ibu_fabric_free(&f);
	ibu_fabric_free(&g);
}
END_TEST

#define HDR "Unicast lids [0x0-0x8] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n" \
	"  Lid  Out   Destination\n" \
	"       Port     Info \n"
#define L1 "0x0001 000 : (Switch portguid 0x0000000000200000: 'Switch1')\n"
#define L2 "0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\n"

/* each case: dump text, expected code, expected "t.dump:LINE:" */
static const struct {
	const char *text;
	int code;
	const char *where;
} bad[] = {
	{ HDR L1 "hello world\n2 valid lids dumped \n", IBU_EPARSE, "t.dump:5:" },
	{ HDR L1 "0x0002 001 : Channel Adapter\n", IBU_EPARSE, "t.dump:5:" },
	{ HDR L1 "0x00zz 001 : (unknown node and type)\n", IBU_EPARSE, "t.dump:5:" },
	{ L1 HDR, IBU_EPARSE, "t.dump:1:" },
	{ HDR L1 L2, IBU_EPARSE, "t.dump:1:" },	/* no trailer: truncated */
	{ HDR L1 L2 "3 valid lids dumped \n", IBU_EPARSE, "t.dump:6:" },
	{ HDR L1 L1 "2 valid lids dumped \n", IBU_EPARSE, "t.dump:5:" },
	/* LID 2 owned by two ports */
	{ HDR L1 L2 "2 valid lids dumped \n"
	  "Unicast lids [0x0-0x6] of switch Lid 3 guid 0x0000000000200001 (Switch2):\n"
	  "0x0002 001 : (Channel Adapter portguid 0x0000000000100004: 'Hca2')\n"
	  "1 valid lids dumped \n", IBU_ELID, "t.dump:8:" },
	/* path #2 out of 4 at LID 6: LIDs 5..8, so LID 2 is not Hca1's */
	{ HDR L1 L2 "0x0006 001 : (path #2 out of 4: portguid 0x0000000000100001)\n"
	  "3 valid lids dumped \n", IBU_ELID, "t.dump:5:" },
	/* two sets overlap */
	{ HDR L1 "0x0006 001 : (path #2 out of 4: portguid 0x0000000000100001)\n"
	  "0x0008 001 : (Channel Adapter portguid 0x0000000000100004: 'Hca2')\n"
	  "3 valid lids dumped \n", IBU_ELID, "t.dump:6:" },
	/* path #3 out of 3 */
	{ HDR L1 "0x0006 001 : (path #3 out of 3: portguid 0x0000000000100001)\n"
	  "2 valid lids dumped \n", IBU_EPARSE, "t.dump:5:" },
	/* LIDs 2 and 5 cannot be one LMC set without LID 0 */
	{ HDR L2 "0x0005 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\n"
	  "2 valid lids dumped \n", IBU_ELID, "t.dump:5:" },
	/* two tables of one switch */
	{ HDR L1 "1 valid lids dumped \n" HDR "0 valid lids dumped \n",
	  IBU_EPARSE, "t.dump:6:" },
	{ "", IBU_EPARSE, "t.dump:1: no switch table" },
	/* strict input: reversed header range, LID 0, a 17-digit GUID, an
	 * entry outside the header's range, octal-looking and signed LIDs */
	{ "Unicast lids [0x6b-0x0] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
	  L1 "1 valid lids dumped \n", IBU_EPARSE, "t.dump:1: LID range of the table header reversed" },
	{ HDR "0x0000 001 : (Switch portguid 0x0000000000200000: 'Switch1')\n"
	  "1 valid lids dumped \n", IBU_EPARSE, "t.dump:4: an entry for LID 0" },
	{ "Unicast lids [0x0-0x6] of switch Lid 1 guid 0x00000000002000000 (Switch1):\n"
	  L1 "1 valid lids dumped \n", IBU_EPARSE, "t.dump:1: bad switch GUID" },
	{ "Unicast lids [0x2-0x6] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
	  L1 "1 valid lids dumped \n", IBU_EPARSE, "t.dump:2: LID outside the range" },
	{ "Unicast lids [-0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
	  L1 "1 valid lids dumped \n", IBU_EPARSE, "t.dump:1: bad LID range" },
	{ "Unicast lids [0x0-0x100000006] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
	  L1 "1 valid lids dumped \n", IBU_EPARSE, "t.dump:1: bad LID range" },
	/* tables without a single entry: no records (a failed dump_lfts) */
	{ HDR "0 valid lids dumped \n" , IBU_EPARSE, "t.dump:1: no LFT entry" },
};

START_TEST(bad_dumps)
{
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	int rc = parse_text(bad[_i].text, &d, &e);

	ck_assert_int_eq(rc, bad[_i].code);
	ck_assert_msg(strstr(e.msg, bad[_i].where) != NULL,
		      "case %d: '%s' lacks '%s'", _i, e.msg, bad[_i].where);
}
END_TEST

/* Regression (hostile input): an embedded NUL is a parse error naming its line,
 * not a line cut short. */
START_TEST(nul_byte_is_parse_error)
{
	static const char text[] = HDR L1 "0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\0junk\n"
		"2 valid lids dumped \n";
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_dump_parse_stream(in, "t.dump", &d, &e);
	fclose(in);
	ck_assert_int_eq(rc, IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:5: NUL byte") != NULL, "%s", e.msg);
}
END_TEST

/* Regression (found by libFuzzer): entries that name no owner
 * leave no port list; finishing must not qsort(NULL, 0, ...). */
START_TEST(entries_without_owner)
{
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	int rc = parse_text(HDR "0x0001 000\n0x0002 001\n2 valid lids dumped \n",
			    &d, &e);

	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(d.num_ports, 0);
	ck_assert_ptr_null(d.port);
	ck_assert_uint_eq(d.sw[0].port[2], 1);
	ibu_dump_free(&d);
}
END_TEST

/* Regression (found by libFuzzer under UBSan): a LID listed again with an
 * empty destination text, before any text was remembered, was compared
 * against a pool not yet allocated (NULL + 0) on the way to the error. */
START_TEST(same_lid_again_without_text)
{
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	int rc = parse_text(HDR "0x0002 000\n0x0002 001\n1 valid lids dumped \n",
			    &d, &e);

	ck_assert_int_eq(rc, IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:5: LID listed twice") != NULL, "%s",
		      e.msg);
}
END_TEST

/* Regression (hostile input): a table's row follows its entries, not the LID
 * range of its header (5,000 empty headers used to cost 48 KB each). */
START_TEST(allocation_follows_content)
{
	size_t cap = 6000 * 160 + 4096, len = 0;
	char *text = malloc(cap);
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	int i, rc;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < 5000; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"Unicast lids [0x0-0xbfff] of switch Lid %d guid 0x%016x (S%d):\n"
					"0 valid lids dumped \n", i + 1, 0x300000 + i, i);
	snprintf(text + len, cap - len, "%s", HDR L1 L2 "2 valid lids dumped \n");
	rc = parse_text(text, &d, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(d.num_switches, 5001);
	for (i = 0; i < 5000; i++) {
		ck_assert_uint_eq(d.sw[i].top, 0xbfff);
		ck_assert_uint_eq(d.sw[i].max_lid, 0);
	}
	ck_assert_uint_eq(d.sw[5000].max_lid, 2);
	ck_assert_uint_eq(d.max_lid, 2);
	ibu_dump_free(&d);
	free(text);
}
END_TEST

/* Dumps that parse but do not fit the fabric. */
static int apply_text(const char *text, struct ibu_fabric *f,
		      struct ibu_err *e)
{
	struct ibu_dump d;
	struct ibu_lft l;
	int rc = parse_text(text, &d, e);

	ck_assert_msg(rc == 0, "%s", e->msg);
	rc = ibu_dump_apply(&d, f, &l, NULL, e);
	ibu_dump_free(&d);
	ibu_lft_free(&l);
	return rc;
}

START_TEST(dump_does_not_fit_fabric)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int rc;

	read_net(FX("2sw2path4hca.net"), &f);
	/* port 9 on an 8-port switch */
	rc = apply_text(HDR L1 "0x0002 009 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\n"
			"2 valid lids dumped \n", &f, &e);
	ck_assert_int_eq(rc, IBU_EINVAL);
	ck_assert_msg(strstr(e.msg, "t.dump:5:") && strstr(e.msg, "port 9"),
		      "%s", e.msg);
	/* unknown switch, by GUID and by name */
	rc = apply_text("Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000290000 (SwitchX):\n"
			L1 "1 valid lids dumped \n", &f, &e);
	ck_assert_int_eq(rc, IBU_ENOTFOUND);
	ck_assert_msg(strstr(e.msg, "t.dump:1:") && strstr(e.msg, "SwitchX"),
		      "%s", e.msg);
	/* unknown GUID but a known name: a name is no identity (strict input) */
	rc = apply_text("Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000290000 (Switch1):\n"
			L1 "1 valid lids dumped \n", &f, &e);
	ck_assert_int_eq(rc, IBU_ENOTFOUND);
	ck_assert_msg(strstr(e.msg, "t.dump:1: switch GUID 0x0000000000290000 is not in") &&
		      strstr(e.msg, "'Switch1' there is 0x0000000000200000"), "%s", e.msg);
	/* an owner that is not in the fabric */
	rc = apply_text(HDR L1 "0x0002 001 : (Channel Adapter portguid 0x0000000000190001: 'Nobody')\n"
			"2 valid lids dumped \n", &f, &e);
	ck_assert_int_eq(rc, IBU_ENOTFOUND);
	ck_assert_msg(strstr(e.msg, "t.dump:5:"), "%s", e.msg);
	/* a switch port GUID named as a Channel Adapter */
	rc = apply_text(HDR "0x0001 000 : (Channel Adapter portguid 0x0000000000200000: 'Switch1')\n"
			"1 valid lids dumped \n", &f, &e);
	ck_assert_int_eq(rc, IBU_EINVAL);
	ibu_fabric_free(&f);
}
END_TEST

/* Ports the dump does not name keep their LIDs unless they collide; a
 * partial view of a wider LMC set known to the fabric keeps the wider set. */
START_TEST(fabric_lids_kept_or_cleared)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int h1, h2, h3, rc;

	read_net(FX("2sw2path4hca.net"), &f);
	h1 = ibu_fabric_find_name(&f, "Hca1");
	h2 = ibu_fabric_find_name(&f, "Hca2");
	h3 = ibu_fabric_find_name(&f, "Hca3");
	f.nodes[h1].ports[1].lid = 4;	/* LIDs 4..7, the dump sees 5 */
	f.nodes[h1].ports[1].lmc = 2;
	f.nodes[h2].ports[1].lid = 2;	/* collides with Hca3's LID 2 */
	f.nodes[h3].ports[1].lid = 9;
	rc = apply_text(HDR L1 "0x0002 001 : (Channel Adapter portguid 0x0000000000100007: 'Hca3')\n"
			"0x0005 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\n"
			"3 valid lids dumped \n", &f, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_uint_eq(f.nodes[h1].ports[1].lid, 4);
	ck_assert_uint_eq(f.nodes[h1].ports[1].lmc, 2);
	ck_assert_uint_eq(f.nodes[h2].ports[1].lid, 0);
	ck_assert_uint_eq(f.nodes[h3].ports[1].lid, 2);
	ibu_fabric_free(&f);
}
END_TEST

/* ibroute -a lists illegal entries: they route nothing; brief lines too. */
START_TEST(illegal_and_brief_lines)
{
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	int rc;

	rc = parse_text(HDR L1 "0x0002 255 : (illegal port)\n"
			"0x0003 001 \n"
			"0x0004 255 : (unknown node and type)\n"
			"4 lids dumped \n"
			"\n*** WARNING ***: this command has been replaced by dump_fts\n"
			"ibwarn: [17016] sim_connect: attached as client 1 at node \"Switch1\"\n",
			&d, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_uint_eq(d.sw[0].port[1], 0);
	ck_assert_uint_eq(d.sw[0].port[2], IBU_NO_PATH);
	ck_assert_uint_eq(d.sw[0].port[3], 1);
	ck_assert_uint_eq(d.sw[0].port[4], IBU_NO_PATH);
	ck_assert_int_eq(d.owner[3], -1);
	ibu_dump_free(&d);
}
END_TEST

/* ---- the writer against the printf reference it replaced ---- */

static const char *ref_type_text(enum ibu_node_type t)
{
	switch (t) {
	case IBU_NODE_SWITCH: return "Switch";
	case IBU_NODE_ROUTER: return "Router";
	default: return "Channel Adapter";
	}
}

/* The former fprintf writer, kept verbatim as the specification. */
static void ref_write(FILE *out, const struct ibu_fabric *f,
		      const struct ibu_lft *lft)
{
	struct ibu_lidmap plan;
	struct ibu_err e = { 0 };
	const struct ibu_lid_owner *own;
	uint32_t lid;
	int i;

	ck_assert_int_eq(ibu_lidmap_build(f, &plan, &e), 0);
	own = plan.owner;
	for (i = 0; i < f->num_nodes && i < lft->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		uint32_t last_lid = 0, base_lid = 0;
		uint64_t pguid = 0;
		int count = 0;

		if (!ibu_node_is_switch(n) || !lft->row[i])
			continue;
		fprintf(out, "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016"
			PRIx64 " (%s):\n", lft->max_lid, n->ports[0].lid, n->guid,
			n->name);
		fprintf(out, "  Lid  Out   Destination\n");
		fprintf(out, "       Port     Info \n");
		for (lid = 1; lid <= lft->max_lid; lid++) {
			unsigned port = lft->row[i][lid];
			const struct ibu_node *o;
			const struct ibu_port *op;

			if ((int)port > n->num_ports)
				continue;
			count++;
			fprintf(out, "0x%04x %03u : ", lid, port);
			if (lid <= last_lid) {
				if (pguid)
					fprintf(out, "(path #%u out of %u: portguid 0x%016"
						PRIx64 ")\n", lid - base_lid + 1,
						last_lid - base_lid + 1, pguid);
				else
					fprintf(out, "(path #%u out of %u)\n",
						lid - base_lid + 1,
						last_lid - base_lid + 1);
				continue;
			}
			pguid = 0;
			if (lid > plan.max_lid || own[lid].node < 0) {
				fprintf(out, "(unknown node and type)\n");
				continue;
			}
			o = &f->nodes[own[lid].node];
			op = &o->ports[own[lid].port];
			pguid = op->guid;
			if (op->lmc) {
				base_lid = op->lid;
				last_lid = op->lid + (1u << op->lmc) - 1;
			}
			fprintf(out, "(%s portguid 0x%016" PRIx64 ": '%s')\n",
				ref_type_text(o->type), pguid, o->name);
		}
		fprintf(out, "%d valid lids dumped \n", count);
	}
	ibu_lidmap_free(&plan);
}

/* Byte for byte as the printf writer: whole sets, sets missing their base
 * or middle LIDs, ports beyond the switch, LIDs without an owner, a zero
 * GUID, rows that change the pattern back and forth. */
START_TEST(write_same_as_printf)
{
	static const int lmcs[] = { 0, 2, 3 };
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_lft l;
	struct ibu_err e = { 0 };
	char *got, *want = NULL;
	size_t wlen = 0;
	FILE *out;
	uint64_t rnd = 5 + (uint64_t)_i;
	int i, s = 0;
	uint32_t lid;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, NULL, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(paper_lids(&f, lmcs[_i],
						  LIDS_ALIGNED, &e), 0);
	ibft_view_free(&t);
	/* beyond the last LID: no owner */
	ck_assert_int_eq(ibu_lft_init(&l, &f, ibu_fabric_max_lid(&f) + 9, &e), 0);
	for (i = 0; i < f.num_nodes; i++) {
		if (!l.row[i])
			continue;
		for (lid = 0; lid <= l.max_lid; lid++)
			l.row[i][lid] = (uint8_t)(1 + (lid + (uint32_t)i) % 8);
		if (s++ % 3 == 1)
			continue;	/* every third row keeps the full pattern */
		for (lid = 0; lid < 12; lid++) {
			uint32_t x = (uint32_t)(ibu_gen_rand(&rnd) % (l.max_lid + 1));

			l.row[i][x] = lid % 3 ? IBU_NO_PATH : 200;
		}
	}
	for (i = 0; i < f.num_nodes; i++)
		if (f.nodes[i].type == IBU_NODE_CA) {
			f.nodes[i].ports[1].guid = 0;
			break;
		}
	out = open_memstream(&want, &wlen);
	ck_assert_ptr_nonnull(out);
	ref_write(out, &f, &l);
	fclose(out);
	got = write_text(&f, &l);
	ck_assert_uint_eq(strlen(got), wlen);
	ck_assert(!memcmp(got, want, wlen));
	free(got);
	free(want);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dump");
	TCase *tc = tcase_create("real");
	TCase *neg = tcase_create("negative");

	tcase_add_test(tc, parse_dump_lfts);
	tcase_add_test(tc, parse_opensm_dump_same_as_dump_lfts);
	tcase_add_test(tc, read_applies_lids);
	tcase_add_test(tc, read_ibnetdiscover_fabric);
	tcase_add_test(tc, write_matches_dump_lfts);
	tcase_add_test(tc, round_trip_exact);
	tcase_add_test(tc, round_trip_edited);
	tcase_add_loop_test(tc, write_same_as_printf, 0, 3);
	tcase_add_test(tc, illegal_and_brief_lines);
	tcase_add_test(tc, fabric_lids_kept_or_cleared);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(neg, bad_dumps, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(neg, dump_does_not_fit_fabric);
	tcase_add_test(neg, nul_byte_is_parse_error);
	tcase_add_test(neg, entries_without_owner);
	tcase_add_test(neg, same_lid_again_without_text);
	tcase_add_test(neg, allocation_follows_content);
	suite_add_tcase(s, neg);
	return s;
}

IBU_UNIT_MAIN
