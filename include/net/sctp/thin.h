/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp: kernel-internal interface of the thin-stream mechanisms. */

#ifndef __NET_SCTP_THIN_H__
#define __NET_SCTP_THIN_H__

#endif /* __NET_SCTP_THIN_H__ */
