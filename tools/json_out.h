/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* --json output: one JSON object per run on stdout (schemas in ibunion(1),
 * JSON OUTPUT). Only what the writers need: quoted strings. */
#ifndef IBU_JSON_OUT_H
#define IBU_JSON_OUT_H

#include <stdio.h>

/* Writes s as a JSON string, quotes included ("null" for NULL). */
int ibu_json_str(FILE *out, const char *s);

/* While a --json command runs, its text report goes to stderr: points
 * stdout there and returns the saved stdout (-1 after a message). */
int ibu_json_stdout_begin(const char *cmd);
/* Points stdout back (saved from ibu_json_stdout_begin) for the object. */
void ibu_json_stdout_end(int saved);

#endif
