// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: retransmission latency mechanisms for thin streams.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", Multimedia Tools and Applications, 2009.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/sctp/thin.h>

MODULE_VERSION("thin-sctp-" SCTP_THIN_VERSION);
