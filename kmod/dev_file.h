/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_FILE_H
#define _HWT_DEV_FILE_H

int hwt_dev_init(void);
void hwt_dev_exit(void);

#endif /* _HWT_DEV_FILE_H */
