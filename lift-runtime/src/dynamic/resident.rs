//! A [`DynKernel`]'s arguments and result kept on its device between launches: the state of
//! one device of an iterated kernel split over several ([`crate::SplitKernel::iterate`]).

use super::buffers::{
    copy, read_staged, staging, sub, write_staged, AnyBuffer, DeviceArg, Staging,
};
use super::launch::Buffers;
use super::DynKernel;
use crate::{Error, Event, Result};
use lift_core::interp::Value;
use std::collections::HashMap;

/// The buffers of one kernel on its device, launched again and again.
pub struct Resident {
    sizes: Vec<usize>,
    env: HashMap<String, i64>,
    bufs: Buffers,
}

impl DynKernel {
    /// `args` uploaded at `sizes`, the result and temporaries allocated, for
    /// [`DynKernel::launch_resident`].
    pub fn resident(&self, sizes: &[usize], args: &[Value]) -> Result<Resident> {
        let env = self.check_sizes(sizes)?;
        let bufs = self.buffers(args, &env)?;
        Ok(Resident::new(sizes, env, bufs))
    }

    /// Enqueues every kernel on the resident buffers; gives the last one's event.
    pub fn launch_resident(&self, r: &Resident) -> Result<Option<Event>> {
        self.enqueue_all(&r.sizes, &r.env, &r.bufs, &mut Vec::new(), None)
    }

    /// The resident result, downloaded.
    pub fn read_resident(&self, r: &Resident) -> Result<Value> {
        let lookup = |n: &str| r.env.get(n).copied();
        self.read_result(&r.bufs, &lookup)
    }
}

impl Resident {
    pub(super) fn new(sizes: &[usize], env: HashMap<String, i64>, bufs: Buffers) -> Resident {
        Resident {
            sizes: sizes.to_vec(),
            env,
            bufs,
        }
    }

    pub(super) fn buffers(&self) -> &Buffers {
        &self.bufs
    }

    /// The buffer of array parameter `param`.
    fn input(&mut self, param: usize) -> Result<&mut AnyBuffer> {
        match self.bufs.device.get_mut(param) {
            Some(DeviceArg::Buffer(b)) => Ok(b),
            _ => Err(Error::launch(format!("parameter {param} is no array"))),
        }
    }

    /// Makes the result buffer elements `offset .. offset + len` of `other`'s parameter
    /// `param` (a sub-buffer: the next launch of `other` reads what this one writes). Fails
    /// where the device does not allow the offset.
    pub fn write_into(
        &mut self,
        other: &mut Resident,
        param: usize,
        offset: usize,
        len: usize,
    ) -> Result<()> {
        self.bufs.out = sub(other.input(param)?, offset, len)?;
        Ok(())
    }

    /// Host memory for `len` elements of this result's type.
    pub(crate) fn staging(&self, len: usize) -> Staging {
        staging(&self.bufs.out, len)
    }

    /// Enqueues a read of this result from `from` filling `st`, not waited for.
    ///
    /// # Safety
    ///
    /// `st` must stay alive and untouched until the event has completed.
    pub(crate) unsafe fn read_out(
        &self,
        from: usize,
        st: &mut Staging,
    ) -> Result<Option<opencl3::event::Event>> {
        // SAFETY: forwarded to the caller.
        unsafe { read_staged(&self.bufs.out, from, st) }
    }

    /// Enqueues a write of `st` into parameter `param` at `to`, not waited for.
    ///
    /// # Safety
    ///
    /// `st` must stay alive and unchanged until the event has completed.
    pub(crate) unsafe fn write_input(
        &mut self,
        param: usize,
        to: usize,
        st: &Staging,
    ) -> Result<Option<opencl3::event::Event>> {
        let dst = self.input(param)?;
        // SAFETY: forwarded to the caller.
        unsafe { write_staged(st, dst, to) }
    }

    /// Copies `len` elements of this result from `from` into `other`'s parameter `param` at
    /// `to` (on the device within one context, through the host between two).
    pub fn copy_out(
        &self,
        from: usize,
        other: &mut Resident,
        param: usize,
        to: usize,
        len: usize,
    ) -> Result<()> {
        copy(&self.bufs.out, from, other.input(param)?, to, len)
    }
}
