//! Running a [`DynKernel`] on typed host data ([`HostArg`]): each array uploaded straight
//! from its slice, the result read straight into the caller's host data; no interpreter
//! value is built for an array (the typed path of [`crate::SplitKernel::run_typed`]).

use super::buffers::{
    buffer_scalar, read_into_data, scalar_count, upload_data, with_buffer, AnyBuffer, DeviceArg,
};
use super::launch::{Buffers, Started};
use super::DynKernel;
use super::Resident;
use crate::{Error, HostArg, HostData, Result};
use lift_core::types::Type;

impl DynKernel {
    /// Starts a run at `sizes` on typed host data (one [`HostArg`] per parameter: an array's
    /// scalars in row-major order, or a scalar): checks sizes, preconditions, the arguments'
    /// lengths and scalar types, uploads each array from its slice and enqueues every kernel
    /// ([`Started::finish_into`] waits and reads the result).
    pub fn start_host(&self, sizes: &[usize], args: &[HostArg<'_>]) -> Result<Started<'_>> {
        let env = self.check_sizes(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        let device = self.upload_host(args, &lookup)?;
        let bufs = self.allocate(device, &lookup)?;
        let last = self.enqueue_all(sizes, &env, &bufs, &mut Vec::new(), None)?;
        Ok(Started {
            kernel: self,
            env,
            bufs,
            last,
        })
    }

    /// The number of scalars of the result at `sizes` (a capped result's capacity).
    pub fn result_len(&self, sizes: &[usize]) -> Result<usize> {
        let env = self.check_sizes(sizes)?;
        scalar_count(&self.info.result, &|n: &str| env.get(n).copied())
    }

    /// Checks `args` against the parameters and uploads the arrays.
    fn upload_host(
        &self,
        args: &[HostArg<'_>],
        lookup: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<Vec<DeviceArg>> {
        let params = &self.kernel.params;
        if args.len() != params.len() {
            return Err(Error::ArgLength {
                arg: "args".into(),
                expected: params.len(),
                actual: args.len(),
            });
        }
        let mut device = Vec::with_capacity(args.len());
        for (p, a) in params.iter().zip(args) {
            let shape = |actual: String| Error::ArgShape {
                arg: p.name.clone(),
                expected: p.ty.to_string(),
                actual,
            };
            device.push(match (a, &p.ty) {
                (HostArg::Scalar(s), Type::Scalar(t)) if s.ty() == *t => DeviceArg::Scalar(*s),
                (HostArg::Scalar(s), _) => return Err(shape(format!("a scalar {}", s.ty()))),
                (HostArg::Array(_), Type::Scalar(_)) => return Err(shape("an array".into())),
                (HostArg::Array(d), ty) => {
                    let s = buffer_scalar(ty, &p.name)?;
                    if d.scalar_type() != s {
                        return Err(shape(format!("scalars of type {}", d.scalar_type())));
                    }
                    let want = scalar_count(ty, lookup)?;
                    if d.len() != want {
                        return Err(Error::ArgLength {
                            arg: p.name.clone(),
                            expected: want,
                            actual: d.len(),
                        });
                    }
                    self.check_host_indices(&p.name, d, lookup)?;
                    DeviceArg::Buffer(upload_data(&self.ctx, d)?)
                }
            });
        }
        Ok(device)
    }

    /// Checks the run-time indices of parameter `param`, if a `filter` reads it.
    fn check_host_indices(
        &self,
        param: &str,
        d: &HostData<'_>,
        lookup: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<()> {
        for c in self.info.index_checks.iter().filter(|c| c.param == param) {
            let HostData::I32(ids) = d else {
                return Err(Error::launch(format!("indices `{param}` are not i32")));
            };
            let len = c.len.eval(&lookup).map_err(|e| Error::Launch {
                reason: format!("the length {} of a filtered array: {e}", c.len),
            })?;
            crate::private::check_indices(&c.param, len, ids)?;
        }
        Ok(())
    }
}

impl Started<'_> {
    /// Waits for the run's kernels and reads the result into `out` from scalar `at` on
    /// (host data of the result's scalar type, room for [`DynKernel::result_len`] scalars);
    /// gives the number of scalars read. A capped result is an error: its length is only
    /// known on the device.
    pub fn finish_into(self, out: &mut HostData<'_>, at: usize) -> Result<usize> {
        if let Some(e) = &self.last {
            e.wait()?;
        }
        self.kernel.read_into(&self.bufs, out, at)
    }
}

impl DynKernel {
    /// [`DynKernel::resident`] on typed host data (checked and uploaded as by
    /// [`DynKernel::start_host`]).
    pub fn resident_host(&self, sizes: &[usize], args: &[HostArg<'_>]) -> Result<Resident> {
        let env = self.check_sizes(sizes)?;
        let lookup = |n: &str| env.get(n).copied();
        let device = self.upload_host(args, &lookup)?;
        let bufs = self.allocate(device, &lookup)?;
        Ok(Resident::new(sizes, env, bufs))
    }

    /// The resident result read into `out` from scalar `at` on (as [`Started::finish_into`]);
    /// gives the number of scalars read.
    pub fn read_resident_into(
        &self,
        r: &Resident,
        out: &mut HostData<'_>,
        at: usize,
    ) -> Result<usize> {
        self.read_into(r.buffers(), out, at)
    }

    /// The result in `bufs` read into `out` from `at` on (a fault point).
    fn read_into(&self, bufs: &Buffers, out: &mut HostData<'_>, at: usize) -> Result<usize> {
        crate::faults::check(crate::faults::Point::Read, &self.ctx)?;
        if bufs.count.is_some() {
            return Err(Error::Compile {
                message: format!(
                    "a result of type {} read into host data; use `run`",
                    self.info.result
                ),
            });
        }
        read_into_data(&bufs.out, out, at)?;
        Ok(with_buffer!(&bufs.out, b => b.len()))
    }
}
