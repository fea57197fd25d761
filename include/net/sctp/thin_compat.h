/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp: kernel API differences between the lines we build for
 * (scripts/kernel-line.sh), in one place, as WireGuard's compat/ does.
 * thin_ctl.c uses the names below and has no version checks of its own.
 * Only thin_ctl.c includes this header.
 *
 * 6.6  register_net_sysctl() became a macro that takes ARRAY_SIZE() of
 *      its table, so a table made at run time (kmemdup()) is registered
 *      with register_net_sysctl_sz() and its number of entries.
 * 6.11 proc_handler takes a const struct ctl_table (constified treewide).
 */
#ifndef __NET_SCTP_THIN_COMPAT_H__
#define __NET_SCTP_THIN_COMPAT_H__

#include <linux/version.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>

/* The table argument of a proc_handler. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define SCTP_THIN_CTL_CONST const
#else
#define SCTP_THIN_CTL_CONST
#endif

#ifdef CONFIG_SYSCTL
/* Register the first @count entries of @table, which is followed by an
 * empty entry (kernels before 6.6 find the end by it).
 */
static inline struct ctl_table_header *
sctp_thin_register_net_sysctl(struct net *net, const char *path,
			      struct ctl_table *table, size_t count)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return register_net_sysctl_sz(net, path, table, count);
#else
	return register_net_sysctl(net, path, table);
#endif
}
#endif

#endif /* __NET_SCTP_THIN_COMPAT_H__ */
