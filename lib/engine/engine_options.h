/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Engine options: one table per engine (key, values, default, help), read
 * by everything that takes options, so that they cannot drift apart:
 *
 *   the plugin's event_plugin_options parser and its registration line,
 *   the tool's -O key=value on every command that runs an engine,
 *   the option list of `ibunion options` (what the man pages show).
 *
 * A value is an int: the index of a name (offsets=rotated|paper) or a
 * number (max_faults=). The framework's own option (mcast_apex, the
 * multicast apex policy every engine's trees follow) comes first.
 * An engine reads its values with ibu_engine_opt(o, &its_option); a value
 * never set is the option's default, so a new engine adds its table and
 * nothing here.
 */
#ifndef IBU_ENGINE_OPTIONS_H
#define IBU_ENGINE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "mcgroup.h"

struct ibu_engine_option {
	const char *key;		/* "offsets" */
	const char *values;		/* what it accepts: "rotated|paper" */
	int def;			/* the default value */
	const char *help;		/* one sentence: what it changes */
	/* text -> value: IBU_OK or IBU_EINVAL (value untouched); NULL
	 * with format NULL: values lists words ("own-vl|shared"), the
	 * value is a word's index (ibu_engine_option_parse) */
	int (*parse)(const char *text, int *value);
	/* value -> text ("rotated", "default") */
	void (*format)(int value, char *buf, size_t len);
	int needs_qos;			/* 1: only takes effect with OpenSM's
					 * `qos TRUE` (SL2VL programming) */
};

/* max_faults=, a key several engines declare (one value serves them all):
 * the initializer of their table entries. Its "default" is
 * IBU_MAX_FAULTS_DEFAULT, which only ibu_fault_limit() reads. */
#define IBU_MAX_FAULTS_DEFAULT (-1)
#define IBU_ENGINE_OPTION_MAX_FAULTS					\
	{ .key = "max_faults", .values = "default|0..1000000",		\
	  .def = IBU_MAX_FAULTS_DEFAULT,					\
	  .help = "how many missing links and switches a damaged fabric "	\
		  "may have and still be routed (default: the engine's "	\
		  "limit for its size)",					\
	  .parse = ibu_engine_opt_parse_count,				\
	  .format = ibu_engine_opt_format_count }

/*
 * The fault limit a recogniser applies: max_faults as set, or for
 * IBU_MAX_FAULTS_DEFAULT (any value < 0) the shape's own default, which
 * only the recogniser knows once it has the shape. The one place the
 * "default" of max_faults= is resolved.
 */
int ibu_fault_limit(int max_faults, int shape_default);

#define IBU_ENGINE_MAX_SET 16

struct ibu_engine_opts {
	enum ibu_mcast_policy mcast_policy;	/* option mcast_apex */
	/* not options: what the caller knows beyond the graph (the plugin
	 * from OpenSM; xy needs both on a damaged mesh, lib/mesh/xy_detour.h) */
	int qos;			/* 1 = SL2VL tables are programmed (qos
					 * TRUE), 0 = not, -1 = unknown (tools) */
	int max_vls;			/* data VLs every link of a switch
					 * holds, HCA links too; 0 = unknown
					 * (15) */
	/* the admin's host order (OpenSM's guid_routing_order_file): port
	 * GUIDs in the order compute hosts are numbered; NULL: the
	 * engine's own order. Owned by the caller. */
	const uint64_t *host_order;
	int num_host_order;
	/* the admin's top switches (OpenSM's root_guid_file): node GUIDs;
	 * NULL: levels from the graph alone. Owned by the caller. */
	const uint64_t *roots;
	int num_roots;
	int num_set;			/* values set, the rest are defaults */
	struct {
		const struct ibu_engine_option *opt;
		int value;
	} set[IBU_ENGINE_MAX_SET];
};

/* mcast_apex: the framework option, first of ibu_engine_option_at(). */
extern const struct ibu_engine_option ibu_engine_opt_mcast_apex;

void ibu_engine_opts_default(struct ibu_engine_opts *o);
/* The value of opt in o (o NULL, or opt never set: its default). */
int ibu_engine_opt(const struct ibu_engine_opts *o,
		   const struct ibu_engine_option *opt);
/* Sets opt's value (the last of several settings wins). IBU_EINVAL when
 * o already holds IBU_ENGINE_MAX_SET other options. */
int ibu_engine_opt_put(struct ibu_engine_opts *o,
		       const struct ibu_engine_option *opt, int value);

/*
 * Every option: i = 0 the framework's, then each engine's table in
 * registry order (an option two engines share by key is listed once);
 * NULL past the end. *engine (may be NULL) receives the owning engine's
 * name, or NULL for the framework's option.
 */
const struct ibu_engine_option *ibu_engine_option_at(int i,
						     const char **engine);
/* The option of that key, or NULL. */
const struct ibu_engine_option *ibu_engine_option_find(const char *key);
/* "xy, cyclic": the engines whose tables declare opt's key (one value
 * serves them all), "every engine" for the framework's own. */
void ibu_engine_option_owners(const struct ibu_engine_option *opt, char *buf,
			      size_t len);

/*
 * The keys beyond the engines' tables, documented here so that `ibunion
 * options`, the man pages and "did you mean" know every word anyone
 * accepts: the plugin's own (event_plugin_options only; the tools take
 * them with -O and ignore them) and OpenSM's files the engines read
 * (opensm.conf keys; the tools read them from --config or take -O).
 */
struct ibu_key_doc {
	const char *key;
	const char *values;
	const char *def;
	const char *where;		/* who takes it */
	const char *help;
};

/* The i-th such key, NULL past the end. */
const struct ibu_key_doc *ibu_key_doc_at(int i);
/* The accepted key nearest to word (a misspelling: a few edits away, or
 * word's text before '=' a prefix of it), or NULL. */
const char *ibu_key_suggest(const char *word);
/* "mcast_apex, vl_plan, ...": every accepted key, engines' first. */
void ibu_key_list(char *buf, size_t len);

/*
 * "key=value": IBU_OK; IBU_ENOTFOUND for an unknown key; IBU_EINVAL for a
 * bad value (*expected, if given, receives what the key accepts) or a word
 * without '=' (*expected = NULL). o keeps its previous value on error.
 */
int ibu_engine_opts_parse_word(struct ibu_engine_opts *o, const char *word,
			       const char **expected);
/* "key=value" of opt's current value in o, into buf (NUL-terminated). */
void ibu_engine_opt_format(const struct ibu_engine_opts *o,
			   const struct ibu_engine_option *opt, char *buf,
			   size_t len);

/* opt's parse and format, or the index of a word of opt->values where
 * the option has none. */
int ibu_engine_option_parse(const struct ibu_engine_option *opt,
			    const char *text, int *value);
void ibu_engine_option_format(const struct ibu_engine_option *opt,
			      int value, char *buf, size_t len);

/* Helpers for option tables: a count 0..1000000 where -1 is "default". */
int ibu_engine_opt_parse_count(const char *text, int *value);
void ibu_engine_opt_format_count(int value, char *buf, size_t len);

#endif
