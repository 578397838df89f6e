"""FLOPs of one UNet / VAE-decoder forward pass, from the layer layout in the models' diffusers
config.json files (UNet2DConditionModel, AutoencoderKL). Used by tools/catalog_other.py to
derive `gflops_per_pass` and `attention_gflops_per_pass` of the UNet diffusion models, and by
hand to check the VAE constant in engine/estimator/estimator.yaml.

Counts 2 FLOPs per multiply-add of every convolution and linear layer, and 4 x T^2 x C for each
self-attention (Q K^T and the attention-weighted sum over T tokens of width C); cross-attention
to the text tokens is 4 x T x text_tokens x C. Norms, activations and the timestep embedding are
left out (under 1%). Check: SD 1.5 at 512x512 gives 681 GFLOPs (340 GMACs) of convolutions and
linear layers, as BK-SDM (Kim et al. 2023, arXiv:2305.15798, Table 1: U-Net 338.7 GMACs; its MAC
counter leaves out the attention matmuls) measured, plus 122 GFLOPs of attention = 803 GFLOPs.

Run: python3 tools/diffusion_flops.py  (prints the figures)
"""


def _conv(cin, cout, hw, k=3):
    return 2.0 * k * k * cin * cout * hw


def _transformer(c, t, ctx_dim, ctx_tokens, depth):
    """One Transformer2DModel (linear proj_in/out, `depth` BasicTransformerBlocks with GEGLU)."""
    linear = 2.0 * t * (2 * c * c)  # proj_in, proj_out
    attn = 0.0
    for _ in range(depth):
        linear += 2.0 * t * (4 * c * c)            # self-attention q, k, v, out
        linear += 2.0 * t * (2 * c * c)            # cross-attention q, out
        linear += 2.0 * ctx_tokens * 2 * ctx_dim * c  # cross-attention k, v on the text
        linear += 2.0 * t * (c * 8 * c + 4 * c * c)   # GEGLU feed-forward (4x, gated)
        attn += 4.0 * t * t * c
        linear += 4.0 * t * ctx_tokens * c
    return linear, attn


def _resnet(cin, cout, hw):
    f = _conv(cin, cout, hw) + _conv(cout, cout, hw)
    if cin != cout:
        f += _conv(cin, cout, hw, k=1)
    return f


def unet_flops(latent_hw, channels, attn_depth, ctx_dim, ctx_tokens=77, latent_ch=4,
               layers_per_block=2, mid_depth=None):
    """(linear+conv FLOPs, quadratic attention FLOPs) of one UNet2DConditionModel pass.

    channels: block_out_channels; attn_depth: transformer layers per block for each level (0 for
    a block without attention), as in config.json's down_block_types and
    transformer_layers_per_block. Up blocks mirror the down blocks (diffusers' layout)."""
    h, w = latent_hw
    lin = 0.0
    att = 0.0
    hw = h * w
    lin += _conv(latent_ch, channels[0], hw)
    skips = [channels[0]]
    cin = channels[0]
    levels = len(channels)
    for i, cout in enumerate(channels):
        res = hw / (4 ** i)
        for _ in range(layers_per_block):
            lin += _resnet(cin, cout, res)
            cin = cout
            if attn_depth[i]:
                l, a = _transformer(cout, res, ctx_dim, ctx_tokens, attn_depth[i])
                lin += l
                att += a
            skips.append(cout)
        if i < levels - 1:
            lin += _conv(cout, cout, res / 4)
            skips.append(cout)
    res = hw / (4 ** (levels - 1))
    c = channels[-1]
    lin += 2 * _resnet(c, c, res)
    l, a = _transformer(c, res, ctx_dim, ctx_tokens, mid_depth or attn_depth[-1] or 1)
    lin += l
    att += a
    prev = c
    for j, cout in enumerate(reversed(channels)):
        i = levels - 1 - j
        res = hw / (4 ** i)
        for _ in range(layers_per_block + 1):
            skip = skips.pop()
            lin += _resnet(prev + skip, cout, res)
            prev = cout
            if attn_depth[i]:
                l, a = _transformer(cout, res, ctx_dim, ctx_tokens, attn_depth[i])
                lin += l
                att += a
        if i > 0:
            lin += _conv(cout, cout, res * 4)  # upsampler conv at the doubled resolution
    lin += _conv(channels[0], latent_ch, hw)
    return lin, att


def vae_decoder_flops(out_hw, channels=(128, 256, 512, 512), layers_per_block=2, latent_ch=4):
    """FLOPs of AutoencoderKL's decoder for an output of out_hw pixels (8x upsampling)."""
    h, w = out_hw
    levels = len(channels)
    lat = h * w / (4 ** (levels - 1))
    c = channels[-1]
    f = _conv(latent_ch, latent_ch, lat, k=1) + _conv(latent_ch, c, lat)
    f += 2 * _resnet(c, c, lat)
    f += 2.0 * lat * 4 * c * c + 4.0 * lat * lat * c  # mid-block single-head attention
    prev = c
    for j, cout in enumerate(reversed(channels)):
        res = lat * (4 ** j)
        for _ in range(layers_per_block + 1):
            f += _resnet(prev, cout, res)
            prev = cout
        if j < levels - 1:
            f += _conv(cout, cout, res * 4)
    f += _conv(channels[0], 3, h * w)
    return f


# Layouts from the diffusers config.json of each repo.
SD15 = dict(channels=(320, 640, 1280, 1280), attn_depth=(1, 1, 1, 0), ctx_dim=768)
SD21 = dict(channels=(320, 640, 1280, 1280), attn_depth=(1, 1, 1, 0), ctx_dim=1024)
SDXL = dict(channels=(320, 640, 1280), attn_depth=(0, 2, 10), ctx_dim=2048)
KOLORS = dict(channels=(320, 640, 1280), attn_depth=(0, 2, 10), ctx_dim=2048, ctx_tokens=256)


def unet_gflops(layout, width, height, **kw):
    lin, att = unet_flops((height // 8, width // 8), **layout, **kw)
    return (lin + att) / 1e9, att / 1e9


if __name__ == "__main__":
    for name, lay, w, h in (("sd-1.5", SD15, 512, 512), ("sd-2.1", SD21, 768, 768),
                            ("sd-2.1@512", SD21, 512, 512), ("sdxl", SDXL, 1024, 1024),
                            ("sdxl@512", SDXL, 512, 512), ("kolors", KOLORS, 1024, 1024)):
        tot, att = unet_gflops(lay, w, h)
        print(f"{name:12s} {w}x{h}: {tot:8.1f} GFLOPs per pass, attention {att:7.1f}")
    for px in (512, 1024):
        g = vae_decoder_flops((px, px)) / 1e9
        print(f"VAE decoder {px}x{px}: {g:8.1f} GFLOPs = {g / (px * px / 1e6):.0f} GFLOP/Mpx")
