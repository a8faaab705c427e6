// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: char device nodes under /dev/gpuprof.  The bottom of the
 * module: it calls no other file of it.
 */

/**
 * DOC: Device nodes
 *
 * Every node shares one cdev spanning a region of minors.  A minor maps to
 * a struct gpuprof_node through an xarray; the common open looks the node
 * up, refuses to open it for reading or writing unless its kind has a read
 * or write method (root passes any permission check, and ctl is 0600 yet
 * write-only), asks the kind's may_open, if it has one, whether the
 * caller may open it at all (mode bits cannot say "the target's owner"),
 * and hands the file to the kind's own fops.  A node may
 * have an owner, a target for the nodes of a target directory: the file
 * then gets a reference to it in ->private_data.  Nodes know the owner
 * only as a pointer and a kref.
 *
 * Node names contain '/', e.g. "gpuprof/3/histogram": the driver core
 * stores them with '!' in sysfs and, as our devnode callback leaves the
 * name alone, turns them back into a path for devtmpfs, which creates the
 * directories and removes them with their last node.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kdev_t.h>
#include <linux/kref.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "compat.h"
#include "gpuprof.h"

#define GPUPROF_MINORS	4096

static dev_t gpuprof_devt;
static struct cdev gpuprof_cdev;
static struct class *gpuprof_class;
/*
 * Minors are handed out cyclically: devtmpfs may fail to remove a node
 * (it allocates to find the path, and ignores the failure), and a stale
 * /dev entry must not reach the next file given its minor.  It finds no
 * node (ENODEV) until the numbers come round again.
 */
static DEFINE_XARRAY_ALLOC(gpuprof_nodes);
static u32 gpuprof_next_minor;

static char *gpuprof_devnode(GPUPROF_DEVNODE_CONST struct device *dev,
			     umode_t *mode)
{
	const struct gpuprof_node *node = dev_get_drvdata(dev);

	/* Also called with a NULL mode when the node is removed. */
	if (mode && node)
		*mode = node->file->mode;
	/* NULL: the driver core turns the '!' of the name back into '/'. */
	return NULL;
}

static int gpuprof_open(struct inode *inode, struct file *filp)
{
	const struct file_operations *fops = NULL;
	int (*may_open)(const void *owner) = NULL;
	void (*release)(struct kref *ref) = NULL;
	struct kref *ref = NULL;
	struct gpuprof_node *node;
	void *owner = NULL;
	int err;

	/*
	 * Under the xarray lock the node cannot be destroyed, and a node
	 * keeps its owner alive: take the reference the file will hold.
	 */
	xa_lock(&gpuprof_nodes);
	node = xa_load(&gpuprof_nodes, iminor(inode));
	if (node) {
		fops = node->file->fops;
		may_open = node->file->may_open;
		owner = node->owner;
		ref = node->ref;
		release = node->release;
		if (ref)
			kref_get(ref);
	}
	xa_unlock(&gpuprof_nodes);
	if (!node)
		return -ENODEV;

	err = -EACCES;
	if ((filp->f_mode & FMODE_READ) && !fops->read && !fops->read_iter)
		goto put;
	if ((filp->f_mode & FMODE_WRITE) && !fops->write)
		goto put;
	if (may_open) {
		err = may_open(owner);
		if (err)
			goto put;
	}

	filp->private_data = owner;
	/* replace_fops() drops the module reference of the old fops. */
	replace_fops(filp, fops_get(fops));
	if (!filp->f_op->open)
		return 0;
	err = filp->f_op->open(inode, filp);
	if (!err)
		return 0;
	/* A failed open is not released: the reference is ours to drop. */
put:
	if (ref)
		kref_put(ref, release);
	return err;
}

static const struct file_operations gpuprof_open_fops = {
	.owner = THIS_MODULE,
	.open = gpuprof_open,
	.llseek = noop_llseek,
};

static void gpuprof_node_release(struct device *dev)
{
	kfree(dev_get_drvdata(dev));
	kfree(dev);
}

/**
 * gpuprof_node_create - create /dev/gpuprof/@name
 * @file: the kind of file the node serves
 * @name: path below /dev/gpuprof, e.g. "ctl" or "3/histogram"
 * @owner: what the node's files are about, NULL for a global node; the
 *	caller keeps it alive until gpuprof_node_destroy()
 * @ref: @owner's reference count, of which each open file holds one
 *	(the kind's release drops it); NULL with a NULL @owner
 * @release: @ref's release function, which may sleep
 *
 * Return: the node, or an ERR_PTR.  May sleep.
 */
struct gpuprof_node *gpuprof_node_create(const struct gpuprof_file *file,
					 const char *name, void *owner,
					 struct kref *ref,
					 void (*release)(struct kref *ref))
{
	struct gpuprof_node *node;
	struct device *dev;
	u32 minor;
	int err;

	err = -ENOMEM;
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!node || !dev)
		goto free;
	node->file = file;
	node->owner = owner;
	node->ref = ref;
	node->release = release;
	node->dev = dev;

	err = xa_alloc_cyclic(&gpuprof_nodes, &minor, node,
			      XA_LIMIT(0, GPUPROF_MINORS - 1),
			      &gpuprof_next_minor, GFP_KERNEL);
	if (err < 0)
		goto free;

	device_initialize(dev);
	dev->devt = MKDEV(MAJOR(gpuprof_devt), minor);
	dev->class = gpuprof_class;
	dev->release = gpuprof_node_release;
	dev_set_drvdata(dev, node);
	/* The kobject layer stores each '/' of the name as '!'. */
	err = dev_set_name(dev, GPUPROF_DEV_DIR "/%s", name);
	if (!err)
		err = device_add(dev);
	if (err) {
		xa_erase(&gpuprof_nodes, minor);
		put_device(dev);	/* frees node and dev */
		return ERR_PTR(err);
	}
	return node;

free:
	kfree(node);
	kfree(dev);
	/* -EBUSY from the allocator: every minor is taken. */
	return ERR_PTR(err == -EBUSY ? -ENOSPC : err);
}

/**
 * gpuprof_node_destroy - remove a node created by gpuprof_node_create()
 * @node: the node; may be NULL or an ERR_PTR
 *
 * New opens fail with -ENODEV from here on.  Files already open keep
 * their reference to the node's owner.
 */
void gpuprof_node_destroy(struct gpuprof_node *node)
{
	int minor;

	if (IS_ERR_OR_NULL(node))
		return;
	minor = MINOR(node->dev->devt);
	xa_erase(&gpuprof_nodes, minor);
	device_del(node->dev);
	put_device(node->dev);
}

int gpuprof_nodes_init(void)
{
	int err;

	err = alloc_chrdev_region(&gpuprof_devt, 0, GPUPROF_MINORS,
				  GPUPROF_DEV_DIR);
	if (err)
		return err;

	cdev_init(&gpuprof_cdev, &gpuprof_open_fops);
	gpuprof_cdev.owner = THIS_MODULE;
	err = cdev_add(&gpuprof_cdev, gpuprof_devt, GPUPROF_MINORS);
	if (err)
		goto unregister;

	gpuprof_class = gpuprof_class_create(GPUPROF_DEV_DIR);
	if (IS_ERR(gpuprof_class)) {
		err = PTR_ERR(gpuprof_class);
		goto del_cdev;
	}
	gpuprof_class->devnode = gpuprof_devnode;
	return 0;

del_cdev:
	cdev_del(&gpuprof_cdev);
unregister:
	unregister_chrdev_region(gpuprof_devt, GPUPROF_MINORS);
	return err;
}

void gpuprof_nodes_exit(void)
{
	WARN_ON(!xa_empty(&gpuprof_nodes));
	class_destroy(gpuprof_class);
	cdev_del(&gpuprof_cdev);
	unregister_chrdev_region(gpuprof_devt, GPUPROF_MINORS);
}
