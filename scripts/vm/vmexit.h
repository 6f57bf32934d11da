/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmexit: end a QEMU guest through the isa-debug-exit device.
 *
 * The KUnit kernel has no ACPI, so `poweroff -f` only halts it; QEMU's
 * isa-debug-exit device (run.sh adds it at VMEXIT_PORT) makes QEMU exit with
 * status (value << 1) | 1 as soon as the guest writes the port.
 */
#ifndef IOCA_VM_VMEXIT_H
#define IOCA_VM_VMEXIT_H

#define VMEXIT_PORT 0xf4

#endif
