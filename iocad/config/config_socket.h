/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tenants on sockets: a tenant's socket is the one its CPUs are on (the
 * platform says which, platform_info.cpu_socket), and iocad manages each
 * socket with tenants on its own. config_for_socket() cuts a config down
 * to one socket's tenants with that socket's settings ([socket N] over
 * [platform]); everything downstream (decide, planner) sees one socket.
 */
#ifndef IOCAD_CONFIG_SOCKET_H
#define IOCAD_CONFIG_SOCKET_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/policy.h"
#include "platform.h"

/* True if the config has a [socket N] section. */
bool config_has_socket_sections(const struct config *cfg);

/*
 * Set every tenant's socket from its CPUs. Refused, naming file:line,
 * the tenant and the CPUs: a CPU absent or offline, CPUs on two sockets,
 * a socket the platform does not manage, a group on two sockets, a
 * tenant off the deprecated `socket = N`. 0 or -EINVAL; @cfg's sockets
 * are only written on success.
 */
int config_place(struct config *cfg, const struct platform_info *info, char *err, size_t errlen);

/* The sockets with tenants (placed), ascending, into @ids; their number. */
unsigned int config_sockets(const struct config *cfg, unsigned int *ids);

/*
 * @out: @cfg (placed) with only the tenants of socket @id, in config
 * order, and @id's [socket N] settings, resolved (config_resolve)
 * against the platform. 0 or -EINVAL with @err set.
 */
int config_for_socket(const struct config *cfg, const struct platform_info *info, unsigned int id,
		      struct config *out, char *err, size_t errlen);

/*
 * 1 if @a and @b say the same (file names and line numbers aside; for
 * per-socket configs, whose [socket N] settings are already applied), 0
 * if not, -ENOMEM.
 */
int config_same(const struct config *a, const struct config *b);

#endif /* IOCAD_CONFIG_SOCKET_H */
