/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_TOPO_H
#define _IOCA_TOPO_H

unsigned int ioca_nr_sockets(void);
unsigned int ioca_nr_sockets_locked(void);
int ioca_socket_cpu(unsigned int socket);
bool ioca_package_present(unsigned int socket);

#endif /* _IOCA_TOPO_H */
