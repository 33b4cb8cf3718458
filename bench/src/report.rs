//! Results: the table (Markdown, printed), CSV and JSON, and the merge of PyTorch results.

use crate::common::{Record, SpellingInfo};
use crate::roofline::Roofline;
use crate::timing::{Res, Stats};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// Everything one run of the suite measured.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// The device's name.
    pub device: String,
    /// The date of the run (`YYYY-MM-DD`).
    pub date: String,
    /// `quick` or `full`.
    pub mode: String,
    /// The measured roofline of the device.
    pub roofline: Roofline,
    /// Every record, in run order.
    pub records: Vec<Record>,
    /// Workload name -> size text, in run order.
    pub sizes: Vec<(String, String)>,
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = secs.div_euclid(86400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

impl Record {
    /// Achieved GB/s (minimal bytes over the median time).
    pub fn gbs(&self) -> Option<f64> {
        self.stats
            .as_ref()
            .map(|s| self.bytes / (s.median_ms * 1e6))
    }

    /// Achieved GFLOP/s.
    pub fn gflops(&self) -> Option<f64> {
        self.stats
            .as_ref()
            .map(|s| self.flops / (s.median_ms * 1e6))
    }

    /// Roofline floor over the median time (1.0 = at the measured roofline).
    pub fn fraction(&self, r: &Roofline) -> Option<f64> {
        self.stats
            .as_ref()
            .map(|s| r.floor_ms(self.flops, self.bytes) / s.median_ms)
    }

    fn to_json(&self, r: &Roofline) -> Value {
        let mut v = json!({
            "workload": self.workload, "implementation": self.implementation, "class": self.class,
            "status": self.status, "rel_err": self.rel_err, "flops": self.flops, "bytes": self.bytes,
            "timing": self.timing,
            "median_ms": self.stats.as_ref().map(|s| s.median_ms),
            "p10_ms": self.stats.as_ref().map(|s| s.p10_ms),
            "p90_ms": self.stats.as_ref().map(|s| s.p90_ms),
            "runs": self.stats.as_ref().map(|s| s.runs),
            "gbs": self.gbs(), "gflops": self.gflops(), "roofline_fraction": self.fraction(r),
        });
        if let (Some(sp), Some(o)) = (&self.spelling, v.as_object_mut()) {
            o.insert("spelling".into(), sp.to_json());
        }
        v
    }

    fn from_json(v: &Value) -> Record {
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let f = |k: &str| v[k].as_f64();
        Record {
            workload: s("workload"),
            implementation: s("implementation"),
            class: s("class"),
            status: s("status"),
            rel_err: f("rel_err"),
            flops: f("flops").unwrap_or(0.0),
            bytes: f("bytes").unwrap_or(0.0),
            timing: s("timing"),
            stats: f("median_ms").map(|m| Stats {
                median_ms: m,
                p10_ms: f("p10_ms").unwrap_or(m),
                p90_ms: f("p90_ms").unwrap_or(m),
                runs: v["runs"].as_u64().unwrap_or(0) as usize,
            }),
            spelling: v
                .get("spelling")
                .filter(|s| s.is_object())
                .map(SpellingInfo::from_json),
        }
    }
}

impl SpellingInfo {
    /// As JSON (inside a record of `results.json`).
    pub fn to_json(&self) -> Value {
        json!({
            "workload": self.workload, "spelling": self.spelling, "n": self.n,
            "round": self.round, "elements": self.elements, "mode": self.mode,
            "candidate": self.candidate,
            "params": self.params.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "tuner_ms": self.tuner.map(|t| t.0),
            "tuner_tried": self.tuner.map(|t| t.1),
            "tuner_valid": self.tuner.map(|t| t.2),
        })
    }

    /// Reads [`SpellingInfo::to_json`].
    pub fn from_json(v: &Value) -> SpellingInfo {
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let u = |k: &str| v[k].as_u64().unwrap_or(0) as usize;
        SpellingInfo {
            workload: s("workload"),
            spelling: s("spelling"),
            n: u("n"),
            round: u("round"),
            elements: v["elements"].as_f64().unwrap_or(0.0),
            mode: s("mode"),
            candidate: s("candidate"),
            params: v["params"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_i64()?)))
                        .collect()
                })
                .unwrap_or_default(),
            tuner: v["tuner_ms"]
                .as_f64()
                .map(|ms| (ms, u("tuner_tried"), u("tuner_valid"))),
        }
    }
}

impl Suite {
    /// The suite as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "device": self.device, "date": self.date, "mode": self.mode,
            "roofline": {"copy_gbs": self.roofline.copy_gbs, "read_gbs": self.roofline.read_gbs, "fma_gflops": self.roofline.fma_gflops},
            "sizes": self.sizes.iter().map(|(w, s)| json!({"workload": w, "size": s})).collect::<Vec<_>>(),
            "records": self.records.iter().map(|r| r.to_json(&self.roofline)).collect::<Vec<_>>(),
        })
    }

    /// Reads a suite written by [`Suite::write`].
    pub fn read(path: &Path) -> Res<Suite> {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
        let r = &v["roofline"];
        Ok(Suite {
            device: v["device"].as_str().unwrap_or_default().into(),
            date: v["date"].as_str().unwrap_or_default().into(),
            mode: v["mode"].as_str().unwrap_or_default().into(),
            roofline: Roofline {
                copy_gbs: r["copy_gbs"].as_f64().unwrap_or(0.0),
                read_gbs: r["read_gbs"].as_f64().unwrap_or(0.0),
                fma_gflops: r["fma_gflops"].as_f64().unwrap_or(0.0),
            },
            sizes: v["sizes"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|s| {
                            (
                                s["workload"].as_str().unwrap_or_default().into(),
                                s["size"].as_str().unwrap_or_default().into(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
            records: v["records"]
                .as_array()
                .map(|a| a.iter().map(Record::from_json).collect())
                .unwrap_or_default(),
        })
    }

    /// Adds the records of `other` (a run of the same device: its roofline is not kept) and
    /// the sizes of its workloads.
    pub fn absorb(&mut self, other: Suite) {
        for (w, size) in other.sizes {
            if !self.sizes.iter().any(|(v, _)| *v == w) {
                self.sizes.push((w, size));
            }
        }
        self.records.extend(other.records);
    }

    /// Adds the PyTorch results of `bench/scripts/torch_ref.py` (replacing earlier ones).
    pub fn merge_torch(&mut self, path: &Path) -> Res<()> {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
        self.records.retain(|r| r.class != "pytorch");
        for t in v["results"]
            .as_array()
            .ok_or("torch JSON: no `results` array")?
        {
            let w = t["workload"].as_str().unwrap_or_default();
            let Some(base) = self.records.iter().find(|r| r.workload == w).cloned() else {
                continue;
            };
            let mut rec = Record::from_json(t);
            rec.class = "pytorch".into();
            rec.flops = base.flops;
            rec.bytes = base.bytes;
            // A reference of the spellings part: same workload and size, mode `reference`.
            rec.spelling = base.spelling.map(|sp| SpellingInfo {
                spelling: rec.implementation.clone(),
                mode: "reference".into(),
                candidate: String::new(),
                params: Vec::new(),
                tuner: None,
                ..sp
            });
            if rec.timing.is_empty() {
                rec.timing = "CUDA events".into();
            }
            let at = self
                .records
                .iter()
                .rposition(|r| r.workload == w)
                .map_or(self.records.len(), |i| i + 1);
            self.records.insert(at, rec);
        }
        Ok(())
    }

    /// Fastest measured, correct time of `class` for `workload`.
    fn best(&self, workload: &str, class: &str) -> Option<f64> {
        self.records
            .iter()
            .filter(|r| r.workload == workload && r.class == class && r.status == "ok")
            .filter_map(|r| r.stats.as_ref().map(|s| s.median_ms))
            .min_by(f64::total_cmp)
    }

    /// The Markdown table: one row per implementation.
    pub fn table(&self) -> String {
        let r = &self.roofline;
        let mut t = String::new();
        let _ = writeln!(
            t,
            "Device: **{}** ({}, {} mode). Measured roofline: stream copy {:.0} GB/s, read {:.0} GB/s, fp32 FMA {:.0} GFLOP/s.\n",
            self.device, self.date, self.mode, r.copy_gbs, r.read_gbs, r.fma_gflops
        );
        let _ = writeln!(t, "| workload | size | implementation | median ms | p10..p90 ms | GB/s | GFLOP/s | of roofline | rel err | vs OpenCL | vs CLBlast | vs PyTorch | status |");
        let _ = writeln!(t, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|");
        for rec in &self.records {
            let size = self
                .sizes
                .iter()
                .find(|(w, _)| *w == rec.workload)
                .map_or("", |(_, s)| s.as_str());
            let ratio = |class: &str| match (self.best(&rec.workload, class), &rec.stats) {
                (Some(b), Some(s)) if rec.class != class || s.median_ms != b => {
                    format!("{:.2}x", b / s.median_ms)
                }
                (Some(_), Some(_)) => "1.00x".into(),
                _ => "-".into(),
            };
            let (med, spread) = rec.stats.as_ref().map_or(("-".into(), "-".into()), |s| {
                (
                    format!("{:.4}", s.median_ms),
                    format!("{:.4}..{:.4}", s.p10_ms, s.p90_ms),
                )
            });
            let _ = writeln!(
                t,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                rec.workload,
                size,
                rec.implementation.replace('|', "\\|"),
                med,
                spread,
                rec.gbs().map_or("-".into(), |v| format!("{v:.0}")),
                rec.gflops().map_or("-".into(), |v| format!("{v:.0}")),
                rec.fraction(r)
                    .map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
                rec.rel_err.map_or("-".into(), |v| format!("{v:.1e}")),
                ratio("opencl"),
                ratio("clblast"),
                ratio("pytorch"),
                rec.status.replace('|', "\\|")
            );
        }
        t.push_str("\nRatios are the reference's best time over this implementation's (above 1 = faster than the reference).\n");
        t
    }

    /// Writes `results.json`, `results.csv` and `table.md` into `dir`.
    pub fn write(&self, dir: &Path) -> Res<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(
            dir.join("results.json"),
            serde_json::to_string_pretty(&self.to_json())? + "\n",
        )?;
        let mut csv = String::from("device,workload,implementation,class,median_ms,p10_ms,p90_ms,runs,gbs,gflops,roofline_fraction,rel_err,status\n");
        let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
        for rec in &self.records {
            let s = rec.stats.as_ref();
            let _ = writeln!(
                csv,
                "\"{}\",{},\"{}\",{},{},{},{},{},{},{},{},{},\"{}\"",
                self.device,
                rec.workload,
                rec.implementation,
                rec.class,
                opt(s.map(|s| s.median_ms)),
                opt(s.map(|s| s.p10_ms)),
                opt(s.map(|s| s.p90_ms)),
                s.map_or(0, |s| s.runs),
                opt(rec.gbs()),
                opt(rec.gflops()),
                opt(rec.fraction(&self.roofline)),
                rec.rel_err.map_or(String::new(), |v| format!("{v:.3e}")),
                rec.status.replace('"', "'")
            );
        }
        std::fs::write(dir.join("results.csv"), csv)?;
        std::fs::write(dir.join("table.md"), self.table())?;
        Ok(())
    }
}
