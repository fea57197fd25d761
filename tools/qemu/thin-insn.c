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
 *   qemu-system-x86_64 ... -plugin path/thin-insn.so,out=FILE[,prof=FILE2]
 *
 * prof=FILE2: a profile.  Each translated block also counts its own
 * executions; at each mark the plugin appends "N VADDR INSNS" to FILE2
 * for every block start that ran since the previous mark (N: the mark's
 * number; INSNS: executions times the block's size), and starts again
 * from zero.  With the guest's /proc/kallsyms the addresses name
 * functions (tools/insn-profile.py).
 *
 * QEMU 7.2's plugin API (QEMU_PLUGIN_VERSION 1): thin-qemu-plugin.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thin-qemu-plugin.h"

EXPORT int qemu_plugin_version = 1;

static const unsigned char thin_mark_insn[9] = {
	0x66, 0x0f, 0x1f, 0x84, 0x00, 0x57, 0x7e, 0x00, 0x00
};

static uint64_t thin_count;
static unsigned long thin_marks;
static FILE *thin_out;

/* prof=: one entry per translation of a block (never freed: a block
 * translated again gets a second entry with the same address)
 */
struct thin_block {
	uint64_t vaddr;
	uint64_t execs;
	unsigned int insns;
};

static FILE *thin_prof;
static struct thin_block **thin_blocks;
static size_t thin_nblocks, thin_capblocks;

static void thin_prof_dump(unsigned long mark)
{
	size_t i;

	for (i = 0; i < thin_nblocks; i++) {
		struct thin_block *b = thin_blocks[i];

		if (!b->execs)
			continue;
		fprintf(thin_prof, "%lu %llx %llu\n", mark, (unsigned long long)b->vaddr,
			(unsigned long long)(b->execs * b->insns));
		b->execs = 0;
	}
	fflush(thin_prof);
}

static void thin_mark(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	if (thin_prof)
		thin_prof_dump(thin_marks);
	fprintf(thin_out, "mark %lu %llu\n", thin_marks++, (unsigned long long)thin_count);
	fflush(thin_out);
}

static void thin_prof_tb(struct qemu_plugin_tb *tb, size_t n)
{
	struct thin_block *b;

	if (thin_nblocks == thin_capblocks) {
		size_t cap = thin_capblocks ? 2 * thin_capblocks : 65536;
		struct thin_block **nb = realloc(thin_blocks, cap * sizeof(*nb));

		if (!nb)
			return;
		thin_blocks = nb;
		thin_capblocks = cap;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = n;
	thin_blocks[thin_nblocks++] = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, THIN_INLINE_ADD_U64, &b->execs, 1);
}

static void thin_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, THIN_INLINE_ADD_U64, &thin_count, n);
	if (thin_prof)
		thin_prof_tb(tb, n);
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
	const char *path = NULL, *prof = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		if (!strncmp(argv[i], "prof=", 5))
			prof = argv[i] + 5;
	}
	thin_out = path ? fopen(path, "w") : stderr;
	if (!thin_out)
		return -1;
	if (prof) {
		thin_prof = fopen(prof, "w");
		if (!thin_prof)
			return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, thin_tb_trans);
	qemu_plugin_register_atexit_cb(id, thin_exit, NULL);
	return 0;
}
