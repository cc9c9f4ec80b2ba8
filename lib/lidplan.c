/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "lidplan.h"
/* placeholder: being written */
