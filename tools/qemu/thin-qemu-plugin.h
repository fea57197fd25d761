/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The part of QEMU 7.2's TCG plugin API (QEMU_PLUGIN_VERSION 1) that
 * thin-insn.c uses, declared from its documentation: Debian ships no
 * qemu-plugin.h.
 */
#ifndef THIN_QEMU_PLUGIN_H
#define THIN_QEMU_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;

enum { THIN_INLINE_ADD_U64 = 0 };	/* QEMU_PLUGIN_INLINE_ADD_U64 */
enum { THIN_CB_NO_REGS = 0 };		/* QEMU_PLUGIN_CB_NO_REGS */

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, int op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    void (*cb)(unsigned int, void *),
					    int flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    void (*cb)(qemu_plugin_id_t, void *), void *userdata);

#endif /* THIN_QEMU_PLUGIN_H */
