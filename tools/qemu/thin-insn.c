// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-insn: a QEMU TCG plugin that counts guest instructions between
 * marks, for make bench-overhead's deterministic cost measure (issue 6:
 * CPU per byte to within 2 % is below the timing noise of TCG).
 *
 * Every TCG block adds its instruction count to one counter (run the guest
 * with one vCPU: the inline add is not atomic).  A mark is the guest
 * executing the 9-byte no-op "nopw 0x7e57(%rax,%rax,1)" in user space
 * (tools/thin-mark): the plugin appends "mark N COUNT" to out=FILE.
 *
 *   qemu-system-x86_64 ... -plugin path/thin-insn.so,out=FILE
 *
 * QEMU 7.2's plugin API (QEMU_PLUGIN_VERSION 1): thin-qemu-plugin.h.
 */
#include <stdio.h>
#include <string.h>

#include "thin-qemu-plugin.h"

EXPORT int qemu_plugin_version = 1;

static const unsigned char thin_mark_insn[9] = {
	0x66, 0x0f, 0x1f, 0x84, 0x00, 0x57, 0x7e, 0x00, 0x00
};

static uint64_t thin_count;
static unsigned long thin_marks;
static FILE *thin_out;

static void thin_mark(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	fprintf(thin_out, "mark %lu %llu\n", thin_marks++, (unsigned long long)thin_count);
	fflush(thin_out);
}

static void thin_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, THIN_INLINE_ADD_U64, &thin_count, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		/* user space only: the lower half of the address space */
		if (qemu_plugin_insn_size(insn) == sizeof(thin_mark_insn) &&
		    qemu_plugin_insn_vaddr(insn) < (1ull << 47) &&
		    !memcmp(qemu_plugin_insn_data(insn), thin_mark_insn, sizeof(thin_mark_insn)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, thin_mark,
							       THIN_CB_NO_REGS, NULL);
	}
}

static void thin_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fprintf(thin_out, "total %llu\n", (unsigned long long)thin_count);
	fclose(thin_out);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			       int argc, char **argv)
{
	const char *path = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	thin_out = path ? fopen(path, "w") : stderr;
	if (!thin_out)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, thin_tb_trans);
	qemu_plugin_register_atexit_cb(id, thin_exit, NULL);
	return 0;
}
