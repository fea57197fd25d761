// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: the version of sctp_diag.ko, built with our sctp.ko.
 *
 * sctp_diag.ko uses sctp.ko's structures, so it must be the one built
 * with it.  DKMS installs a module only if it differs by version from the
 * kernel's own (Debian's sctp_diag has no version): without this, it keeps
 * Debian's sctp_diag.ko beside our sctp.ko.
 */
#include <linux/module.h>

MODULE_VERSION("thin-sctp-" SCTP_THIN_VERSION);
