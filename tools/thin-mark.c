// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-mark: execute the no-op that tools/qemu/thin-insn.so (a QEMU TCG
 * plugin) records as a mark, with the guest's instruction count so far.
 * Without the plugin it does nothing.  make bench-overhead puts a mark
 * before and after each bulk transfer.
 */
int main(void)
{
	/* nopw 0x7e57(%rax,%rax,1): 66 0f 1f 84 00 57 7e 00 00 */
	__asm__ volatile(".byte 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x57, 0x7e, 0x00, 0x00");
	return 0;
}
