/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User-space stand-in for <linux/string.h>. */
#include <string.h>
