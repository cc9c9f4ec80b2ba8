/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "cyclic.h"
/* placeholder: being written */
