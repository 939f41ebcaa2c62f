//! A power cut for SQLite, simulated where SQLite meets the disk: a VFS
//! (the layer SQLite does all its file work through) over the machine's own
//! that passes every call on, but keeps, for each file, what each write
//! since the file's last `fsync` overwrote. [`cut`] then does what losing
//! power does to a disk's write cache: every write not yet synced is undone
//! (or, for each file, only a random number of the latest ones, as when the
//! disk had written the first few out in order), and from that moment every
//! file opened before it refuses all reads and writes, and nothing in their
//! folders is opened or deleted again, as on a dead machine. SQLite's own crash tests work the same way (its `test6.c`).
//!
//! What is left on disk is what the machine would find after the power
//! came back; a copy of the files (without the `-shm` index, which lives in
//! memory and is rebuilt from the log) is opened as after a reboot.
//!
//! Installed as the process's default VFS, so it is for a test binary of
//! its own.

#![allow(dead_code)]

use libsqlite3_sys as ffi;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The part of a write (or truncation) that undoes it: the bytes it
/// overwrote at `offset`, and the file's length before it.
struct Undo {
    offset: u64,
    old: Vec<u8>,
    old_len: u64,
}

struct Disk {
    /// Files opened in this epoch are live; a cut starts a new one.
    epoch: u64,
    /// Unsynced writes of each file, oldest first.
    unsynced: HashMap<String, Vec<Undo>>,
    /// The folders of the files opened since the last cut.
    open_dirs: HashSet<PathBuf>,
    /// The folders of the files open at a cut: the dead machine's disk.
    /// Nothing there is opened or deleted again: a connection the server
    /// opened after the cut would trust the dead connections' `-shm`
    /// index, which still lists the log frames the cut undid.
    dead_dirs: HashSet<PathBuf>,
    /// A cut waiting for its moment.
    armed: Option<Armed>,
    /// What the armed cut did, once it struck.
    fired: Option<CutReport>,
}

/// A cut to come: the writes, truncations and syncs still to go before the
/// one it strikes (of the database file alone, when `db_file_only`: in WAL
/// mode it is written only by checkpoints), and how it undoes.
struct Armed {
    left: u64,
    db_file_only: bool,
    all: bool,
    rng: StdRng,
}

/// Files opened in an epoch before this one are dead (read without the
/// lock: a read has nothing to record).
static CUT_BEFORE: AtomicU64 = AtomicU64::new(0);

fn disk() -> &'static Mutex<Disk> {
    static DISK: OnceLock<Mutex<Disk>> = OnceLock::new();
    DISK.get_or_init(|| {
        Mutex::new(Disk {
            epoch: 0,
            unsynced: HashMap::new(),
            open_dirs: HashSet::new(),
            dead_dirs: HashSet::new(),
            armed: None,
            fired: None,
        })
    })
}

fn lock() -> std::sync::MutexGuard<'static, Disk> {
    disk().lock().unwrap_or_else(|p| p.into_inner())
}

/// One open file as SQLite holds it: SQLite allocates `szOsFile` bytes,
/// this header then the machine VFS's own file.
#[repr(C)]
struct CutFile {
    base: ffi::sqlite3_file,
    /// Null for SQLite's nameless temporary files (nothing to keep).
    path: *mut String,
    epoch: u64,
}

fn real(file: *mut ffi::sqlite3_file) -> *mut ffi::sqlite3_file {
    // SAFETY (for callers): `file` is one of ours, allocated by SQLite with
    // `szOsFile` bytes: the header, then the real file.
    unsafe { (file as *mut u8).add(header_size()) as *mut ffi::sqlite3_file }
}

const fn header_size() -> usize {
    // Rounded up to 8 so the real file is aligned as SQLite aligns ours.
    std::mem::size_of::<CutFile>().div_ceil(8) * 8
}

unsafe fn methods(file: *mut ffi::sqlite3_file) -> &'static ffi::sqlite3_io_methods {
    unsafe { &*(*real(file)).pMethods }
}

unsafe fn me<'a>(file: *mut ffi::sqlite3_file) -> &'a CutFile {
    unsafe { &*(file as *const CutFile) }
}

fn dead(file: &CutFile) -> bool {
    file.epoch < CUT_BEFORE.load(Ordering::SeqCst)
}

struct Machine(*mut ffi::sqlite3_vfs);
// SAFETY: SQLite's VFS objects are process-wide and used from every thread.
unsafe impl Send for Machine {}
unsafe impl Sync for Machine {}

fn machine() -> *mut ffi::sqlite3_vfs {
    MACHINE.get().expect("installed").0
}

static MACHINE: OnceLock<Machine> = OnceLock::new();

/// Make this VFS the process's default (once). Call it before the first
/// SQLite connection of the test.
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| unsafe {
        let machine = ffi::sqlite3_vfs_find(std::ptr::null());
        assert!(!machine.is_null(), "SQLite has a default VFS");
        MACHINE.set(Machine(machine)).ok().unwrap();
        let m = &*machine;
        let vfs = Box::leak(Box::new(ffi::sqlite3_vfs {
            iVersion: m.iVersion,
            szOsFile: (header_size() + m.szOsFile as usize) as c_int,
            mxPathname: m.mxPathname,
            pNext: std::ptr::null_mut(),
            zName: c"powercut".as_ptr(),
            pAppData: std::ptr::null_mut(),
            xOpen: Some(open),
            xDelete: Some(delete),
            xAccess: Some(access),
            xFullPathname: Some(full_pathname),
            xDlOpen: None,
            xDlError: None,
            xDlSym: None,
            xDlClose: None,
            xRandomness: Some(randomness),
            xSleep: Some(sleep),
            xCurrentTime: Some(current_time),
            xGetLastError: Some(last_error),
            xCurrentTimeInt64: Some(current_time_64),
            xSetSystemCall: None,
            xGetSystemCall: None,
            xNextSystemCall: None,
        }));
        assert_eq!(ffi::sqlite3_vfs_register(vfs, 1), ffi::SQLITE_OK);
    });
}

/// What a cut undid: for each file that had unsynced writes, how many it
/// had and how many were undone.
pub type CutReport = Vec<(String, usize, usize)>;

/// Cut the power now: undo unsynced writes (all of them when `all`, else
/// a random number of each file's latest) and kill every file open now.
pub fn cut(rng: &mut impl Rng, all: bool) -> CutReport {
    lock().cut(rng, all)
}

/// Cut the power in the middle of the file work to come: just before the
/// `ops`-th write, truncation or sync from now is done (so that one is lost
/// too, and a sync's writes are not yet safe), counting only those of
/// database files (not their logs) when `db_file_only`. Random choices
/// from `seed`.
pub fn arm(ops: u64, db_file_only: bool, all: bool, seed: u64) {
    let mut d = lock();
    d.fired = None;
    d.armed = Some(Armed {
        left: ops.max(1),
        db_file_only,
        all,
        rng: StdRng::seed_from_u64(seed),
    });
}

/// What the armed cut did, once it has struck.
pub fn fired() -> Option<CutReport> {
    lock().fired.clone()
}

impl Disk {
    fn cut(&mut self, rng: &mut impl Rng, all: bool) -> CutReport {
        self.armed = None;
        CUT_BEFORE.store(self.epoch + 1, Ordering::SeqCst);
        self.epoch += 1;
        let mut report = Vec::new();
        for (path, undos) in self.unsynced.drain() {
            let n = undos.len();
            let undone = if all { n } else { rng.gen_range(0..=n) };
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .unwrap_or_else(|e| panic!("reopen {path} to undo its writes: {e}"));
            for u in undos[n - undone..].iter().rev() {
                f.seek(SeekFrom::Start(u.offset)).unwrap();
                f.write_all(&u.old).unwrap();
                f.set_len(u.old_len).unwrap();
            }
            f.sync_all().unwrap();
            report.push((path, n, undone));
        }
        let dirs: Vec<PathBuf> = self.open_dirs.drain().collect();
        self.dead_dirs.extend(dirs);
        report.sort();
        report
    }

    /// One more write, truncation or sync of `file`: whether the armed cut
    /// struck (then the file is dead and the work must not be done).
    fn strikes(&mut self, file: &CutFile) -> bool {
        let Some(armed) = &mut self.armed else {
            return false;
        };
        if armed.db_file_only {
            // SAFETY: a file's path lives until it is closed.
            let path = unsafe { file.path.as_ref() };
            if !path.is_some_and(|p| p.ends_with(".db")) {
                return false;
            }
        }
        armed.left -= 1;
        if armed.left > 0 {
            return false;
        }
        let (all, mut rng) = (armed.all, armed.rng.clone());
        let report = self.cut(&mut rng, all);
        self.fired = Some(report);
        true
    }
}

/// The folder of a file SQLite names.
unsafe fn dir_of(name: *const c_char) -> Option<PathBuf> {
    if name.is_null() {
        return None;
    }
    let p = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    Path::new(&p).parent().map(Path::to_path_buf)
}

unsafe extern "C" fn open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    unsafe {
        (*file).pMethods = std::ptr::null();
        // Under the lock throughout, so a cut comes wholly before or after.
        let mut d = lock();
        let dir = dir_of(name);
        if dir.as_ref().is_some_and(|p| d.dead_dirs.contains(p)) {
            return ffi::SQLITE_CANTOPEN;
        }
        let m = machine();
        let rc = ((*m).xOpen.unwrap())(m, name, real(file), flags, out_flags);
        if rc != ffi::SQLITE_OK || (*real(file)).pMethods.is_null() {
            return rc;
        }
        let path = if name.is_null() {
            std::ptr::null_mut()
        } else {
            let p = CStr::from_ptr(name).to_string_lossy().into_owned();
            Box::into_raw(Box::new(p))
        };
        d.open_dirs.extend(dir);
        std::ptr::write(
            file as *mut CutFile,
            CutFile {
                base: ffi::sqlite3_file {
                    pMethods: &IO_METHODS,
                },
                path,
                epoch: d.epoch,
            },
        );
        ffi::SQLITE_OK
    }
}

unsafe extern "C" fn delete(
    _: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    sync_dir: c_int,
) -> c_int {
    unsafe {
        // A dead machine deletes nothing.
        if dir_of(name).is_some_and(|p| lock().dead_dirs.contains(&p)) {
            return ffi::SQLITE_IOERR_DELETE;
        }
        let m = machine();
        ((*m).xDelete.unwrap())(m, name, sync_dir)
    }
}

/// VFS functions that hand the call to the machine's VFS unchanged.
macro_rules! to_machine {
    ($($name:ident => $field:ident($($arg:ident: $ty:ty),*);)*) => {$(
        unsafe extern "C" fn $name(_: *mut ffi::sqlite3_vfs, $($arg: $ty),*) -> c_int {
            let m = machine();
            // SAFETY: the machine's VFS is SQLite's own, for the process's life.
            unsafe { ((*m).$field.unwrap())(m, $($arg),*) }
        }
    )*};
}

to_machine! {
    access => xAccess(name: *const c_char, flags: c_int, out: *mut c_int);
    full_pathname => xFullPathname(name: *const c_char, n: c_int, out: *mut c_char);
    randomness => xRandomness(n: c_int, out: *mut c_char);
    sleep => xSleep(micros: c_int);
    current_time => xCurrentTime(out: *mut f64);
    last_error => xGetLastError(n: c_int, out: *mut c_char);
    current_time_64 => xCurrentTimeInt64(out: *mut ffi::sqlite3_int64);
}

static IO_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 3,
    xClose: Some(close),
    xRead: Some(read),
    xWrite: Some(write),
    xTruncate: Some(truncate),
    xSync: Some(sync),
    xFileSize: Some(file_size),
    xLock: Some(lock_file),
    xUnlock: Some(unlock_file),
    xCheckReservedLock: Some(check_reserved_lock),
    xFileControl: Some(file_control),
    xSectorSize: Some(sector_size),
    xDeviceCharacteristics: Some(device_characteristics),
    xShmMap: Some(shm_map),
    xShmLock: Some(shm_lock),
    xShmBarrier: Some(shm_barrier),
    xShmUnmap: Some(shm_unmap),
    xFetch: Some(fetch),
    xUnfetch: Some(unfetch),
};

unsafe extern "C" fn close(file: *mut ffi::sqlite3_file) -> c_int {
    unsafe {
        let rc = (methods(file).xClose.unwrap())(real(file));
        let path = me(file).path;
        if !path.is_null() {
            drop(Box::from_raw(path));
        }
        rc
    }
}

unsafe extern "C" fn read(
    file: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    n: c_int,
    at: i64,
) -> c_int {
    unsafe {
        if dead(me(file)) {
            return ffi::SQLITE_IOERR_READ;
        }
        (methods(file).xRead.unwrap())(real(file), buf, n, at)
    }
}

/// Keep what a write (or truncation) of `n` bytes at `at` is about to
/// overwrite: the bytes there now (fewer where the file ends) and the
/// file's length. False when they could not be read.
unsafe fn keep_undo(d: &mut Disk, file: *mut ffi::sqlite3_file, at: i64, n: usize) -> bool {
    unsafe {
        let path = me(file).path;
        if path.is_null() {
            return true;
        }
        let mut len: i64 = 0;
        if (methods(file).xFileSize.unwrap())(real(file), &mut len) != ffi::SQLITE_OK {
            return false;
        }
        let have = (len - at).clamp(0, n as i64) as usize;
        let mut old = vec![0u8; have];
        if have > 0 {
            let rc = (methods(file).xRead.unwrap())(
                real(file),
                old.as_mut_ptr() as *mut c_void,
                have as c_int,
                at,
            );
            if rc != ffi::SQLITE_OK {
                return false;
            }
        }
        d.unsynced.entry((*path).clone()).or_default().push(Undo {
            offset: at as u64,
            old,
            old_len: len as u64,
        });
        true
    }
}

unsafe extern "C" fn write(
    file: *mut ffi::sqlite3_file,
    buf: *const c_void,
    n: c_int,
    at: i64,
) -> c_int {
    unsafe {
        let mut d = lock();
        if dead(me(file)) || d.strikes(me(file)) || !keep_undo(&mut d, file, at, n as usize) {
            return ffi::SQLITE_IOERR_WRITE;
        }
        (methods(file).xWrite.unwrap())(real(file), buf, n, at)
    }
}

unsafe extern "C" fn truncate(file: *mut ffi::sqlite3_file, size: i64) -> c_int {
    unsafe {
        let mut d = lock();
        // What lies past `size` is kept whole.
        if dead(me(file)) || d.strikes(me(file)) || !keep_undo(&mut d, file, size, usize::MAX >> 1)
        {
            return ffi::SQLITE_IOERR_TRUNCATE;
        }
        (methods(file).xTruncate.unwrap())(real(file), size)
    }
}

unsafe extern "C" fn sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    unsafe {
        // Held through the fsync: a cut comes wholly before it (its writes
        // are undone) or wholly after (they are on disk).
        let mut d = lock();
        if dead(me(file)) || d.strikes(me(file)) {
            return ffi::SQLITE_IOERR_FSYNC;
        }
        let rc = (methods(file).xSync.unwrap())(real(file), flags);
        let path = me(file).path;
        if rc == ffi::SQLITE_OK && !path.is_null() {
            d.unsynced.remove(&*path);
        }
        rc
    }
}

unsafe extern "C" fn file_size(file: *mut ffi::sqlite3_file, out: *mut i64) -> c_int {
    unsafe {
        if dead(me(file)) {
            return ffi::SQLITE_IOERR_FSTAT;
        }
        (methods(file).xFileSize.unwrap())(real(file), out)
    }
}

/// File methods that hand the call to the machine's file unchanged, even
/// on a dead file: its connections must still let go of their locks while
/// they fail.
macro_rules! to_real_file {
    ($($name:ident => $field:ident($($arg:ident: $ty:ty),*);)*) => {$(
        unsafe extern "C" fn $name(file: *mut ffi::sqlite3_file, $($arg: $ty),*) -> c_int {
            unsafe { (methods(file).$field.unwrap())(real(file), $($arg),*) }
        }
    )*};
}

to_real_file! {
    lock_file => xLock(level: c_int);
    unlock_file => xUnlock(level: c_int);
    check_reserved_lock => xCheckReservedLock(out: *mut c_int);
    file_control => xFileControl(op: c_int, arg: *mut c_void);
    sector_size => xSectorSize();
    device_characteristics => xDeviceCharacteristics();
    shm_lock => xShmLock(offset: c_int, n: c_int, flags: c_int);
}

// The `-shm` index is memory shared between connections, never synced:
// after a reboot SQLite rebuilds it from the log, and the copy a test
// reopens leaves it behind.
unsafe extern "C" fn shm_map(
    file: *mut ffi::sqlite3_file,
    page: c_int,
    size: c_int,
    extend: c_int,
    out: *mut *mut c_void,
) -> c_int {
    unsafe {
        if dead(me(file)) {
            return ffi::SQLITE_IOERR_SHMMAP;
        }
        (methods(file).xShmMap.unwrap())(real(file), page, size, extend, out)
    }
}

unsafe extern "C" fn shm_barrier(file: *mut ffi::sqlite3_file) {
    unsafe { (methods(file).xShmBarrier.unwrap())(real(file)) }
}

unsafe extern "C" fn shm_unmap(file: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    unsafe {
        // A dead machine deletes nothing.
        let delete = if dead(me(file)) { 0 } else { delete };
        (methods(file).xShmUnmap.unwrap())(real(file), delete)
    }
}

// No memory-mapped reads: every read goes through `read`, which a cut
// stops.
unsafe extern "C" fn fetch(
    _: *mut ffi::sqlite3_file,
    _: i64,
    _: c_int,
    out: *mut *mut c_void,
) -> c_int {
    unsafe { *out = std::ptr::null_mut() };
    ffi::SQLITE_OK
}

unsafe extern "C" fn unfetch(_: *mut ffi::sqlite3_file, _: i64, _: *mut c_void) -> c_int {
    ffi::SQLITE_OK
}
