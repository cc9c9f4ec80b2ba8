/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine tables the unit tests run directly, declared as the registry
 * (lib/engine/engine_registry.c) declares them: engine.h names no engine.
 */
#ifndef IBU_TEST_ENGINES_H
#define IBU_TEST_ENGINES_H

#include "engine.h"

extern const struct ibu_engine_ops ibu_engine_cyclic;
extern const struct ibu_engine_ops ibu_engine_xy;

#endif
