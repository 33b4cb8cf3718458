//! Typed device buffers.

use crate::context::Context;
use crate::error::{Error, Result};
use half::f16;
use opencl3::command_queue::enqueue_fill_buffer;
use opencl3::memory::{Buffer as ClBuffer, ClMem, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_WRITE};
use opencl3::types::{CL_BLOCKING, CL_NON_BLOCKING};
use std::ffi::c_void;
use std::ptr;

/// `CL_INVALID_BUFFER_SIZE`: the requested size is zero or too large.
const CL_INVALID_BUFFER_SIZE: i32 = -61;

/// A plain scalar that can live in a device buffer or be passed as a kernel argument.
///
/// # Safety
///
/// Implementors must be `Copy` types without padding for which every bit pattern is a valid
/// value, with the size and layout of the OpenCL C type [`CL_NAME`](DeviceScalar::CL_NAME).
pub unsafe trait DeviceScalar: Copy + Default + Send + Sync + 'static {
    /// The OpenCL C spelling of the type, e.g. `float`.
    const CL_NAME: &'static str;
}

/// Implements [`DeviceScalar`] for primitive types.
macro_rules! device_scalar {
    ($($t:ty => $name:literal),* $(,)?) => {$(
        // SAFETY: primitive numbers with the layout of the named OpenCL C type.
        unsafe impl DeviceScalar for $t {
            const CL_NAME: &'static str = $name;
        }
    )*};
}

device_scalar! {
    f32 => "float", f64 => "double", i32 => "int", u32 => "uint",
    i64 => "long", u64 => "ulong", f16 => "half", u8 => "uchar",
}

/// A device buffer of `len` elements of `T`, tied to the [`Context`] that made it.
///
/// Reads and writes go through the context's in-order queue, so they see the effects of
/// every kernel enqueued before them.
#[derive(Debug)]
pub struct Buffer<T: DeviceScalar> {
    raw: ClBuffer<T>,
    len: usize,
    ctx: Context,
    /// Counted in [`crate::live_objects`].
    _live: crate::live::Live,
}

impl Context {
    /// Copies `data` into a new device buffer.
    pub fn upload<T: DeviceScalar>(&self, data: &[T]) -> Result<Buffer<T>> {
        if data.is_empty() {
            return self.alloc(0);
        }
        self.check_alloc::<T>(data.len())?;
        // SAFETY: with COPY_HOST_PTR OpenCL only reads `data.len()` elements from the pointer
        // during the call.
        let raw = unsafe {
            ClBuffer::<T>::create(
                self.cl_context(),
                CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                data.len(),
                data.as_ptr() as *mut c_void,
            )
        }
        .map_err(|e| alloc_failed::<T>(data.len(), e.0))?;
        Ok(Buffer {
            raw,
            len: data.len(),
            ctx: self.clone(),
            _live: crate::live::Live::new(crate::live::Kind::Buffer),
        })
    }

    /// A new device buffer of `len` elements with unspecified contents (whatever the device
    /// memory held; any bit pattern is a valid `T`). Length 0 is allowed.
    pub fn alloc<T: DeviceScalar>(&self, len: usize) -> Result<Buffer<T>> {
        // OpenCL rejects empty buffers; a zero-length Buffer owns one unused element.
        let count = len.max(1);
        self.check_alloc::<T>(count)?;
        // SAFETY: no host pointer is passed.
        let raw = unsafe {
            ClBuffer::<T>::create(self.cl_context(), CL_MEM_READ_WRITE, count, ptr::null_mut())
        }
        .map_err(|e| alloc_failed::<T>(len, e.0))?;
        Ok(Buffer {
            raw,
            len,
            ctx: self.clone(),
            _live: crate::live::Live::new(crate::live::Kind::Buffer),
        })
    }

    /// A new device buffer of `len` elements, all bits zero. Length 0 is allowed.
    pub fn alloc_zeroed<T: DeviceScalar>(&self, len: usize) -> Result<Buffer<T>> {
        let buf = self.alloc::<T>(len)?;
        let zero = 0u8;
        // SAFETY: the buffer is valid and at least `len.max(1)` elements long; OpenCL copies
        // the one-byte pattern before returning.
        let event = unsafe {
            enqueue_fill_buffer(
                self.cl_queue().get(),
                buf.raw.get(),
                ptr::from_ref(&zero).cast(),
                1,
                0,
                byte_size::<T>(len.max(1))?,
                0,
                ptr::null(),
            )
        }
        .map_err(|code| Error::Cl {
            call: "clEnqueueFillBuffer",
            code,
        })?;
        // The in-order queue orders later commands after the fill; only the handle is freed.
        drop(opencl3::event::Event::new(event));
        Ok(buf)
    }
}

impl Context {
    /// `Err(Alloc)` unless `len` elements of `T` fit in one buffer of this device.
    fn check_alloc<T: DeviceScalar>(&self, len: usize) -> Result<()> {
        let err = |reason: String| Error::Alloc {
            len,
            elem: T::CL_NAME,
            reason,
        };
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| err("the size in bytes overflows".into()))?;
        let info = self.device_info();
        // A driver that does not report the limit (0) leaves the check to clCreateBuffer.
        if info.max_alloc_bytes > 0 && bytes as u64 > info.max_alloc_bytes {
            return Err(err(format!(
                "{bytes} bytes, but the device `{}` allows at most {} bytes in one buffer \
                 (CL_DEVICE_MAX_MEM_ALLOC_SIZE); use smaller sizes or split the data",
                info.name, info.max_alloc_bytes
            )));
        }
        Ok(())
    }
}

/// The error of a `clCreateBuffer` of `len` elements of `T` that failed with `code`.
fn alloc_failed<T: DeviceScalar>(len: usize, code: i32) -> Error {
    Error::Alloc {
        len,
        elem: T::CL_NAME,
        reason: format!(
            "the driver refused it: {} ({code}); the device may be out of memory",
            opencl3::error_codes::error_text(code)
        ),
    }
}

/// `len * size_of::<T>()`, or an error when it overflows.
fn byte_size<T>(len: usize) -> Result<usize> {
    len.checked_mul(std::mem::size_of::<T>()).ok_or(Error::Cl {
        call: "clCreateBuffer",
        code: CL_INVALID_BUFFER_SIZE,
    })
}

impl<T: DeviceScalar> Buffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies the buffer back to the host, after every command enqueued before.
    pub fn download(&self) -> Result<Vec<T>> {
        let mut out = vec![T::default(); self.len];
        self.read_into(&mut out)?;
        Ok(out)
    }

    /// Copies the buffer into `dst`, whose length must equal [`len`](Buffer::len).
    pub fn read_into(&self, dst: &mut [T]) -> Result<()> {
        self.check_len("read_into", dst.len())?;
        if dst.is_empty() {
            return Ok(());
        }
        // SAFETY: blocking read of exactly `dst.len()` elements, which the buffer holds.
        unsafe {
            self.ctx
                .cl_queue()
                .enqueue_read_buffer(&self.raw, CL_BLOCKING, 0, dst, &[])
        }
        .map_err(Error::cl("clEnqueueReadBuffer"))?;
        Ok(())
    }

    /// Overwrites the buffer with `src`, whose length must equal [`len`](Buffer::len).
    pub fn write_from(&mut self, src: &[T]) -> Result<()> {
        self.check_len("write_from", src.len())?;
        if src.is_empty() {
            return Ok(());
        }
        // SAFETY: blocking write of exactly `src.len()` elements, which fit in the buffer.
        unsafe {
            self.ctx
                .cl_queue()
                .enqueue_write_buffer(&mut self.raw, CL_BLOCKING, 0, src, &[])
        }
        .map_err(Error::cl("clEnqueueWriteBuffer"))?;
        Ok(())
    }

    /// Copies elements `offset .. offset + dst.len()` of the buffer into `dst`.
    pub fn read_range(&self, offset: usize, dst: &mut [T]) -> Result<()> {
        self.check_range("read_range", offset, dst.len())?;
        if dst.is_empty() {
            return Ok(());
        }
        let at = byte_size::<T>(offset)?;
        // SAFETY: blocking read of `dst.len()` elements from `offset`, inside the buffer.
        unsafe {
            self.ctx
                .cl_queue()
                .enqueue_read_buffer(&self.raw, CL_BLOCKING, at, dst, &[])
        }
        .map_err(Error::cl("clEnqueueReadBuffer"))?;
        Ok(())
    }

    /// Overwrites elements `offset .. offset + src.len()` of the buffer with `src`.
    pub fn write_range(&mut self, offset: usize, src: &[T]) -> Result<()> {
        self.check_range("write_range", offset, src.len())?;
        if src.is_empty() {
            return Ok(());
        }
        let at = byte_size::<T>(offset)?;
        // SAFETY: blocking write of `src.len()` elements from `offset`, inside the buffer.
        unsafe {
            self.ctx
                .cl_queue()
                .enqueue_write_buffer(&mut self.raw, CL_BLOCKING, at, src, &[])
        }
        .map_err(Error::cl("clEnqueueWriteBuffer"))?;
        Ok(())
    }

    /// Enqueues a read of elements `offset .. offset + dst.len()` into `dst` behind every
    /// command enqueued before, without waiting; gives its event (none for nothing to read).
    ///
    /// # Safety
    ///
    /// `dst` must stay alive, and be neither read nor written, until the event has completed.
    pub(crate) unsafe fn read_range_enqueued(
        &self,
        offset: usize,
        dst: &mut [T],
    ) -> Result<Option<opencl3::event::Event>> {
        self.check_range("read_range", offset, dst.len())?;
        if dst.is_empty() {
            return Ok(None);
        }
        let at = byte_size::<T>(offset)?;
        // SAFETY: the range lies inside the buffer; the caller keeps `dst` until the event.
        unsafe {
            self.ctx
                .cl_queue()
                .enqueue_read_buffer(&self.raw, CL_NON_BLOCKING, at, dst, &[])
        }
        .map(Some)
        .map_err(Error::cl("clEnqueueReadBuffer"))
    }

    /// Enqueues a write of `src` over elements `offset .. offset + src.len()` behind every
    /// command enqueued before, without waiting; gives its event (none for nothing to write).
    ///
    /// # Safety
    ///
    /// `src` must stay alive and unchanged until the event has completed.
    pub(crate) unsafe fn write_range_enqueued(
        &mut self,
        offset: usize,
        src: &[T],
    ) -> Result<Option<opencl3::event::Event>> {
        self.check_range("write_range", offset, src.len())?;
        if src.is_empty() {
            return Ok(None);
        }
        let at = byte_size::<T>(offset)?;
        // SAFETY: the range lies inside the buffer; the caller keeps `src` until the event.
        unsafe {
            self.ctx
                .cl_queue()
                .enqueue_write_buffer(&mut self.raw, CL_NON_BLOCKING, at, src, &[])
        }
        .map(Some)
        .map_err(Error::cl("clEnqueueWriteBuffer"))
    }

    /// Copies `len` elements of `src` (a buffer of the same context) from `src_offset` to
    /// this buffer at `offset`, on the device, after every command enqueued before.
    pub fn copy_range_from(
        &mut self,
        offset: usize,
        src: &Buffer<T>,
        src_offset: usize,
        len: usize,
    ) -> Result<()> {
        self.check_range("copy_range_from", offset, len)?;
        src.check_range("copy_range_from", src_offset, len)?;
        if src.ctx.cl_context().get() != self.ctx.cl_context().get() {
            return Err(Error::ForeignBuffer {
                index: 0,
                device: src.ctx.device_info().name.clone(),
            });
        }
        if len == 0 {
            return Ok(());
        }
        let [at, from, bytes] = [offset, src_offset, len].map(byte_size::<T>);
        // SAFETY: both ranges were checked to lie inside their buffers, of one context.
        let event = unsafe {
            self.ctx.cl_queue().enqueue_copy_buffer(
                &src.raw,
                &mut self.raw,
                from?,
                at?,
                bytes?,
                &[],
            )
        }
        .map_err(Error::cl("clEnqueueCopyBuffer"))?;
        // The in-order queue orders later commands after the copy; only the handle is freed.
        drop(event);
        Ok(())
    }

    /// Elements `offset .. offset + len` as a buffer of their own that shares the memory
    /// (an OpenCL sub-buffer): a kernel that writes it writes this buffer. The device must
    /// allow the offset: `CL_DEVICE_MEM_BASE_ADDR_ALIGN` must divide it in bytes, else an
    /// [`Error::Cl`] (`CL_MISALIGNED_SUB_BUFFER_OFFSET`).
    pub fn sub(&self, offset: usize, len: usize) -> Result<Buffer<T>> {
        self.check_range("sub", offset, len)?;
        // SAFETY: the region lies inside the buffer; flags as the parent's.
        let raw = unsafe {
            self.raw
                .create_sub_buffer(CL_MEM_READ_WRITE, offset, len.max(1))
        }
        .map_err(Error::cl("clCreateSubBuffer"))?;
        Ok(Buffer {
            raw,
            len,
            ctx: self.ctx.clone(),
            _live: crate::live::Live::new(crate::live::Kind::Buffer),
        })
    }

    /// `Err(BufferLength)` unless `offset .. offset + len` lies inside the buffer.
    fn check_range(&self, op: &'static str, offset: usize, len: usize) -> Result<()> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len => Ok(()),
            _ => Err(Error::BufferLength {
                op,
                expected: self.len,
                actual: offset.saturating_add(len),
            }),
        }
    }

    /// The underlying `opencl3` buffer (one element long when [`len`](Buffer::len) is 0).
    pub fn raw(&self) -> &ClBuffer<T> {
        &self.raw
    }

    /// The context the buffer belongs to.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// `Err(BufferLength)` unless `actual` equals the buffer length.
    fn check_len(&self, op: &'static str, actual: usize) -> Result<()> {
        if actual == self.len {
            Ok(())
        } else {
            Err(Error::BufferLength {
                op,
                expected: self.len,
                actual,
            })
        }
    }
}
