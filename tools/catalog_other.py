"""Diffusion models, quantizations, runtimes and prices for the fitrank catalog."""

import csv
import re

import diffusion_flops

# ============================================================================================
# Diffusion
# ============================================================================================
DIFFUSION_SOURCES = {
    "diffusion-csv": (
        "shared/data/sources/diffusion_models.csv (written for fitrank, 2025-11): parameter "
        "counts, text encoders, native resolution, VRAM figures (basis in notes). Sampling "
        "defaults (steps, frames) are the model card / reference pipeline defaults listed in "
        "tools/catalog_other.py; VAE compression and patch size from the model's paper or "
        "config. Compute layout (cfg_passes, hidden_size, attention_layers, token_params_b, "
        "text_tokens) from the repo's config.json and model card, UNet FLOPs derived by "
        "tools/diffusion_flops.py (DIFFUSION_COMPUTE in tools/catalog_other.py); a note "
        "says `estimate` where a figure is not from the config."),
    "diffusion-added": (
        "Added in tools/catalog_other.py (not in diffusion_models.csv): published parameter "
        "counts, resolutions and model-card sampling defaults of the named Hugging Face repo. "
        "No VRAM figures recorded. Compute layout as for diffusion-csv."),
}

# Per diffusion_models.csv id: (kind, width, height, steps, frames, latent_downsample,
# temporal_downsample, patch_size, active_params_b or None, basis of the defaults)
DIFFUSION_DEFAULTS = {
    "sd-1.5": ("image", 512, 512, 25, 0, 8, 1, 1, None,
               "25 steps: common UI default (diffusers' pipeline default is 50)"),
    "sd-2.1": ("image", 768, 768, 25, 0, 8, 1, 1, None,
               "25 steps: common UI default (diffusers' pipeline default is 50)"),
    "sdxl-1.0": ("image", 1024, 1024, 30, 0, 8, 1, 1, None,
                 "30 steps: common default for the base model (diffusers' default is 50)"),
    "sdxl-turbo": ("image", 512, 512, 1, 0, 8, 1, 1, None, "model card: 1 step, no CFG"),
    "playground-v2.5": ("image", 1024, 1024, 50, 0, 8, 1, 1, None,
                        "model card example: 50 steps, guidance 3"),
    "sd3-medium": ("image", 1024, 1024, 28, 0, 8, 1, 2, None,
                   "model card example: 28 steps, guidance 7"),
    "sd3.5-medium": ("image", 1024, 1024, 40, 0, 8, 1, 2, None,
                     "model card example: 40 steps, guidance 4.5"),
    "sd3.5-large": ("image", 1024, 1024, 28, 0, 8, 1, 2, None,
                    "model card example: 28 steps, guidance 3.5"),
    "sd3.5-large-turbo": ("image", 1024, 1024, 4, 0, 8, 1, 2, None,
                          "model card example: 4 steps, no CFG"),
    "flux.1-dev": ("image", 1024, 1024, 28, 0, 8, 1, 2, None,
                   "28 steps: diffusers FluxPipeline default (model card example uses 50)"),
    "flux.1-schnell": ("image", 1024, 1024, 4, 0, 8, 1, 2, None, "model card: 4 steps"),
    "flux.1-kontext-dev": ("image", 1024, 1024, 28, 0, 8, 1, 2, None,
                           "28 steps: diffusers pipeline default; image editing"),
    "flux.1-krea-dev": ("image", 1024, 1024, 28, 0, 8, 1, 2, None,
                        "28 steps as FLUX.1 [dev] (drop-in compatible)"),
    "flux.2-dev": ("image", 1024, 1024, 50, 0, 8, 1, 2, None,
                   "50 steps: reference pipeline default (28 is the card's quoted speed/quality "
                   "trade-off); approximate"),
    "chroma1-hd": ("image", 1024, 1024, 40, 0, 8, 1, 2, None,
                   "model card example: 40 steps, guidance 3"),
    "qwen-image": ("image", 1328, 1328, 50, 0, 8, 1, 2, None,
                   "model card example: 50 steps, true CFG 4"),
    "qwen-image-edit": ("image", 1328, 1328, 50, 0, 8, 1, 2, None,
                        "model card example: 50 steps; image editing"),
    "hidream-i1-full": ("image", 1024, 1024, 50, 0, 8, 1, 2, None,
                        "Full variant: 50 steps (Dev 28, Fast 16)"),
    "sana-1.6b": ("image", 1024, 1024, 20, 0, 32, 1, 1, None,
                  "model card example: 20 steps; DC-AE 32x autoencoder, patch 1"),
    "pixart-sigma": ("image", 1024, 1024, 20, 0, 8, 1, 2, None,
                     "20 steps: diffusers PixArtSigmaPipeline default"),
    "lumina-image-2.0": ("image", 1024, 1024, 50, 0, 8, 1, 2, None,
                         "model card example: 50 steps"),
    "hunyuanimage-2.1": ("image", 2048, 2048, 50, 0, 32, 1, 1, None,
                         "50 steps (distilled variant 8); 32x-compression VAE; approximate"),
    "svd-xt": ("video", 1024, 576, 25, 25, 8, 1, 1, None,
               "25 frames, 25 steps (diffusers StableVideoDiffusionPipeline defaults); per-frame "
               "VAE"),
    "ltx-video-2b": ("video", 768, 512, 40, 121, 32, 8, 1, None,
                     "reference inference script: 40 steps, 121 frames; 32x32x8 VAE, patch 1"),
    "ltx-video-13b": ("video", 1216, 704, 40, 121, 32, 8, 1, None,
                      "40 steps, 121 frames as LTX-Video 2B (distilled variants use ~8)"),
    "wan2.1-t2v-1.3b": ("video", 832, 480, 50, 81, 8, 4, 2, None,
                        "Wan reference: 50 sampling steps, 81 frames (5 s at 16 fps)"),
    "wan2.1-t2v-14b": ("video", 1280, 720, 50, 81, 8, 4, 2, None,
                       "Wan reference: 50 sampling steps, 81 frames"),
    "wan2.1-i2v-14b-720p": ("video", 1280, 720, 40, 81, 8, 4, 2, None,
                            "Wan reference: 40 sampling steps for I2V, 81 frames"),
    "wan2.2-ti2v-5b": ("video", 1280, 704, 50, 121, 16, 4, 2, None,
                       "Wan2.2 reference: 50 steps, 121 frames (5 s at 24 fps); 16x16x4 VAE"),
    "wan2.2-t2v-a14b": ("video", 1280, 720, 40, 81, 8, 4, 2, 14.0,
                        "Wan2.2 reference: 40 steps, 81 frames; high-noise then low-noise 14B "
                        "expert, 14B active per step of 27B"),
    "wan2.2-i2v-a14b": ("video", 1280, 720, 40, 81, 8, 4, 2, 14.0,
                        "Wan2.2 reference: 40 steps, 81 frames; 14B active per step of 27B"),
    "hunyuanvideo": ("video", 1280, 720, 50, 129, 8, 4, 2, None,
                     "reference: 50 steps, 129 frames; 3D causal VAE 8x8x4, patch 1x2x2"),
    "hunyuanvideo-1.5": ("video", 1280, 720, 50, 121, 16, 4, 1, None,
                         "50 steps, 121 frames; 16x16x4 VAE; approximate"),
    "mochi-1": ("video", 848, 480, 64, 163, 8, 6, 2, None,
                "reference: 64 steps, 163 frames; AsymmVAE 8x8x6"),
    "cogvideox-5b": ("video", 720, 480, 50, 49, 8, 4, 2, None,
                     "model card: 50 steps, 49 frames (6 s at 8 fps); 3D VAE 8x8x4"),
    "cogvideox-2b": ("video", 720, 480, 50, 49, 8, 4, 2, None,
                     "model card: 50 steps, 49 frames; 3D VAE 8x8x4"),
    "open-sora-2.0": ("video", 768, 768, 50, 129, 32, 4, 1, None,
                      "50 steps, 129 frames; Video DC-AE 32x32x4; approximate"),
}

# Added models: gpus.csv-like fields written out.
DIFFUSION_ADDED = [
    dict(id="kolors", name="Kolors", family="Kolors", org="Kuaishou (Kwai-Kolors)",
         kind="image", architecture="UNet latent diffusion (SDXL-like)", params_b=2.6,
         text_encoder_params_b=6.2, width=1024, height=1024, steps=50, frames=0,
         latent_downsample=8, temporal_downsample=1, patch_size=1, release_date="2024-07-06",
         license="kolors", hf_repo="Kwai-Kolors/Kolors-diffusers",
         notes=("ChatGLM3-6B text encoder (~6.2B); model card example: 50 steps, guidance 5; "
                "bilingual (Chinese/English) prompts")),
    dict(id="auraflow-v0.3", name="AuraFlow v0.3", family="AuraFlow", org="fal",
         kind="image", architecture="MMDiT (rectified flow)", params_b=6.8,
         text_encoder_params_b=0, width=1024, height=1024, steps=50, frames=0,
         latent_downsample=8, temporal_downsample=1, patch_size=2, release_date="2024-08",
         license="apache-2.0", hf_repo="fal/AuraFlow-v0.3",
         notes=("6.8B flow transformer; Pile-T5-XL text encoder (size not recorded); model card "
                "example: 50 steps, guidance 3.5")),
    dict(id="stable-cascade", name="Stable Cascade", family="Stable Cascade",
         org="Stability AI", kind="image", architecture="Wuerstchen (Stage C prior + Stage B)",
         params_b=3.6, text_encoder_params_b=0.69, width=1024, height=1024, steps=20, frames=0,
         latent_downsample=42, temporal_downsample=1, patch_size=1, release_date="2024-02-12",
         license="stability-ai-nc-research", hf_repo="stabilityai/stable-cascade",
         notes=("params_b = Stage C prior (3.6B) at a 42x compressed latent (24x24 for 1024 px), "
                "20 steps; the 1.5B Stage B decoder then runs 10 steps at 4x latent; CLIP "
                "ViT-bigG text encoder")),
    dict(id="pixart-alpha", name="PixArt-alpha XL 2 1024", family="PixArt",
         org="PixArt-alpha team (Huawei Noah's Ark)", kind="image", architecture="DiT",
         params_b=0.6, text_encoder_params_b=4.7, width=1024, height=1024, steps=20, frames=0,
         latent_downsample=8, temporal_downsample=1, patch_size=2, release_date="2023-11",
         license="openrail++-m", hf_repo="PixArt-alpha/PixArt-XL-2-1024-MS",
         notes="T5-XXL encoder dominates memory; 20 steps: diffusers PixArtAlphaPipeline default"),
    dict(id="kandinsky-3", name="Kandinsky 3", family="Kandinsky", org="Sber AI",
         kind="image", architecture="UNet latent diffusion", params_b=3.0,
         text_encoder_params_b=8.6, width=1024, height=1024, steps=25, frames=0,
         latent_downsample=8, temporal_downsample=1, patch_size=1, release_date="2023-11-22",
         license="apache-2.0", hf_repo="kandinsky-community/kandinsky-3",
         notes=("3.0B UNet, Flan-UL2 encoder (8.6B), MoVQ decoder; 25 steps: diffusers "
                "Kandinsky3Pipeline default")),
    dict(id="sdxl-lightning", name="SDXL-Lightning", family="SDXL", org="ByteDance",
         kind="image", architecture="UNet latent diffusion (progressive adversarial distillation)",
         params_b=2.6, text_encoder_params_b=0.82, width=1024, height=1024, steps=4, frames=0,
         latent_downsample=8, temporal_downsample=1, patch_size=1, release_date="2024-02-21",
         license="openrail++-m", hf_repo="ByteDance/SDXL-Lightning",
         notes="1-, 2-, 4- and 8-step checkpoints of SDXL; 4-step shown"),
    dict(id="sd-turbo", name="SD-Turbo", family="Stable Diffusion 2.x", org="Stability AI",
         kind="image", architecture="UNet latent diffusion (adversarial distillation)",
         params_b=0.865, text_encoder_params_b=0.354, width=512, height=512, steps=1, frames=0,
         latent_downsample=8, temporal_downsample=1, patch_size=1, release_date="2023-11-28",
         license="stability-ai-nc-research", hf_repo="stabilityai/sd-turbo",
         notes="Distilled SD 2.1; model card: 1 step, no CFG"),
    dict(id="sana-0.6b", name="Sana 0.6B 1024px", family="Sana", org="NVIDIA / MIT HAN Lab",
         kind="image", architecture="Linear DiT + DC-AE (32x)", params_b=0.6,
         text_encoder_params_b=2.6, width=1024, height=1024, steps=20, frames=0,
         latent_downsample=32, temporal_downsample=1, patch_size=1, release_date="2024-11-21",
         license="nvidia-non-commercial (Sana license)",
         hf_repo="Efficient-Large-Model/Sana_600M_1024px_diffusers",
         notes="Gemma-2-2B-IT text encoder; 20 steps as Sana 1.6B"),
    dict(id="wan2.1-i2v-14b-480p", name="Wan2.1 I2V 14B 480P", family="Wan 2.1",
         org="Alibaba Wan", kind="video", architecture="DiT (flow matching) + Wan-VAE",
         params_b=14.0, text_encoder_params_b=6.3, width=832, height=480, steps=40, frames=81,
         latent_downsample=8, temporal_downsample=4, patch_size=2, release_date="2025-02-25",
         license="apache-2.0", hf_repo="Wan-AI/Wan2.1-I2V-14B-480P",
         notes="480p sibling of Wan2.1 I2V 14B 720P (umT5-XXL + CLIP encoders); 40 steps, 81 frames"),
    dict(id="svd", name="Stable Video Diffusion (14 frames)", family="SVD", org="Stability AI",
         kind="video", architecture="UNet latent video diffusion", params_b=1.5,
         text_encoder_params_b=0.6, width=1024, height=576, steps=25, frames=14,
         latent_downsample=8, temporal_downsample=1, patch_size=1, release_date="2023-11-21",
         license="stability-ai-nc-research", hf_repo="stabilityai/stable-video-diffusion-img2vid",
         notes="Image-to-video; 14 frames, 25 steps; CLIP image encoder"),
]


# ---- Denoiser compute: how engine/diffusion.cc prices one sampling step.
# cfg_passes: denoiser passes per step. Classifier-free guidance runs the model on the prompt
# and on the negative/empty prompt (2); guidance-distilled (FLUX.1 dev/schnell, HunyuanVideo's
# embedded guidance) and adversarially distilled turbo/lightning models run once (1). Default by
# architecture: 2; entries below say 1 where the model card or reference pipeline does.
# Transformers (DiT, MMDiT): hidden_size and attention_layers (blocks with full self-attention
# over all tokens) from the repo's config.json; token_params_b = parameters applied to every
# token, i.e. without the per-sample adaLN modulation and embedders, from the block layout
# (e.g. FLUX.1: 19 double blocks x 12 C^2 per stream + 38 single blocks x 12 C^2 = 684 C^2 at
# C = 3072 -> 6.46B of the 11.9B; the rest is modulation applied once per step). 0 = unknown:
# the engine then takes all (active) parameters per token, an upper bound.
# text_tokens: text tokens in the joint attention sequence (MMDiT; 0 for cross-attention).
# context_images: reference images whose latent tokens join the sequence (editing models).
# UNets: gflops_per_pass / attention_gflops_per_pass at the default resolution (and frames),
# derived by tools/diffusion_flops.py from the diffusers config.json layout.
# The last item is the basis note appended to the model's notes.
UNET_SVD_NOTE = ("per-frame spatial UNet as SD 2.1 at 1024x576 (tools/diffusion_flops.py) with "
                 "its conv/linear work scaled by 1.5/0.865 params for the temporal layers; "
                 "estimate")


def _unet(layout, w, h, frames=1, linear_scale=1.0, **kw):
    tot, att = diffusion_flops.unet_gflops(layout, w, h, **kw)
    lin = (tot - att) * linear_scale
    return round((lin + att) * frames, 1), round(att * frames, 1)


def _dit(cfg, hidden, layers, token_params, text_tokens=0, context_images=0, note=""):
    return dict(cfg_passes=cfg, hidden_size=hidden, attention_layers=layers,
                token_params_b=token_params, text_tokens=text_tokens,
                context_images=context_images, note=note)


def _unet_row(cfg, flops, hidden, per_frame=False, note=""):
    return dict(cfg_passes=cfg, hidden_size=hidden, gflops_per_pass=flops[0],
                attention_gflops_per_pass=flops[1], per_frame_attention=per_frame, note=note)


_UNET_NOTE = "UNet FLOPs from the config.json layout (tools/diffusion_flops.py)"
_FLUX_TOKEN_B = round(684 * 3072 ** 2 / 1e9, 3)  # 19 x 12 C^2 (double) + 38 x 12 C^2 (single)
_SD3_NOTE = "MMDiT: 12 C^2 per token per block of 36 C^2 (the rest is adaLN modulation)"
_WAN14_TOKEN_B = round(40 * (6 * 5120 ** 2 + 2 * 5120 * 13824) / 1e9, 2)
_WAN_NOTE = "Wan DiT: self-attn 4 C^2 + cross-attn q/o 2 C^2 + FFN per token per block; cross-attention to umT5"
DIFFUSION_COMPUTE = {
    "sd-1.5": _unet_row(2, _unet(diffusion_flops.SD15, 512, 512), 320, note=_UNET_NOTE),
    "sd-2.1": _unet_row(2, _unet(diffusion_flops.SD21, 768, 768), 320, note=_UNET_NOTE),
    "sd-turbo": _unet_row(1, _unet(diffusion_flops.SD21, 512, 512), 320, note=_UNET_NOTE),
    "sdxl-1.0": _unet_row(2, _unet(diffusion_flops.SDXL, 1024, 1024), 320, note=_UNET_NOTE),
    "sdxl-turbo": _unet_row(1, _unet(diffusion_flops.SDXL, 512, 512), 320, note=_UNET_NOTE),
    "sdxl-lightning": _unet_row(1, _unet(diffusion_flops.SDXL, 1024, 1024), 320,
                                note=_UNET_NOTE),
    "playground-v2.5": _unet_row(2, _unet(diffusion_flops.SDXL, 1024, 1024), 320,
                                 note=_UNET_NOTE),
    "kolors": _unet_row(2, _unet(diffusion_flops.KOLORS, 1024, 1024), 320, note=_UNET_NOTE),
    "kandinsky-3": _unet_row(2, _unet(diffusion_flops.SDXL, 1024, 1024, linear_scale=3.0 / 2.6),
                             320, note="estimate: SDXL's UNet FLOPs scaled by 3.0/2.6 params"),
    "svd-xt": _unet_row(2, _unet(diffusion_flops.SD21, 1024, 576, frames=25,
                                 linear_scale=1.5 / 0.865), 320, per_frame=True,
                        note=UNET_SVD_NOTE),
    "svd": _unet_row(2, _unet(diffusion_flops.SD21, 1024, 576, frames=14,
                              linear_scale=1.5 / 0.865), 320, per_frame=True,
                     note=UNET_SVD_NOTE),
    "sd3-medium": _dit(2, 1536, 24, round(24 * 12 * 1536 ** 2 / 1e9, 3), 333, note=_SD3_NOTE),
    "sd3.5-medium": _dit(2, 1536, 37, round((24 * 12 + 13 * 4) * 1536 ** 2 / 1e9, 3), 333,
                         note=_SD3_NOTE + "; 13 MMDiT-X extra self-attention layers counted "
                         "as full layers (estimate)"),
    "sd3.5-large": _dit(2, 2432, 38, round(38 * 12 * 2432 ** 2 / 1e9, 3), 333, note=_SD3_NOTE),
    "sd3.5-large-turbo": _dit(1, 2432, 38, round(38 * 12 * 2432 ** 2 / 1e9, 3), 333,
                              note=_SD3_NOTE),
    "flux.1-dev": _dit(1, 3072, 57, _FLUX_TOKEN_B, 512, note="guidance-distilled"),
    "flux.1-schnell": _dit(1, 3072, 57, _FLUX_TOKEN_B, 256, note="timestep-distilled"),
    "flux.1-kontext-dev": _dit(1, 3072, 57, _FLUX_TOKEN_B, 512, context_images=1,
                               note="guidance-distilled; the input image's tokens join"),
    "flux.1-krea-dev": _dit(1, 3072, 57, _FLUX_TOKEN_B, 512, note="guidance-distilled"),
    "flux.2-dev": _dit(1, 6144, 56, 0, 512,
                       note="8 double + 48 single blocks; per-token share unknown (estimate)"),
    "chroma1-hd": _dit(2, 3072, 57, _FLUX_TOKEN_B, 512,
                       note="FLUX.1-schnell layout without modulation layers; real CFG"),
    "qwen-image": _dit(2, 3072, 60, round(60 * 12 * 3072 ** 2 / 1e9, 3), 256,
                       note="true CFG; text tokens vary with the prompt (256 assumed)"),
    "qwen-image-edit": _dit(2, 3072, 60, round(60 * 12 * 3072 ** 2 / 1e9, 3), 256,
                            context_images=1,
                            note="true CFG; the input image's tokens join (estimate)"),
    "hidream-i1-full": _dit(2, 2560, 48, 0, 256,
                            note="16 double + 32 single MoE blocks; per-token share unknown "
                            "(estimate)"),
    "sana-1.6b": _dit(2, 2240, 0, 1.6, note="linear attention: no quadratic term"),
    "sana-0.6b": _dit(2, 1152, 0, 0.6, note="linear attention: no quadratic term"),
    "pixart-sigma": _dit(2, 1152, 28, 0.6, note="adaLN-single; cross-attention to T5"),
    "pixart-alpha": _dit(2, 1152, 28, 0.6, note="adaLN-single; cross-attention to T5"),
    "lumina-image-2.0": _dit(2, 2304, 26, 0, 256, note="per-token share unknown (estimate)"),
    "auraflow-v0.3": _dit(2, 3072, 36, 0, 256,
                          note="4 joint + 32 single blocks; per-token share unknown (estimate)"),
    "ltx-video-2b": _dit(2, 2048, 28, 0, note="cross-attention to T5"),
    "ltx-video-13b": _dit(2, 4096, 48, 0, note="cross-attention to T5"),
    "wan2.1-t2v-1.3b": _dit(2, 1536, 30,
                            round(30 * (6 * 1536 ** 2 + 2 * 1536 * 8960) / 1e9, 3),
                            note=_WAN_NOTE),
    "wan2.1-t2v-14b": _dit(2, 5120, 40, _WAN14_TOKEN_B, note=_WAN_NOTE),
    "wan2.1-i2v-14b-720p": _dit(2, 5120, 40, _WAN14_TOKEN_B, note=_WAN_NOTE),
    "wan2.1-i2v-14b-480p": _dit(2, 5120, 40, _WAN14_TOKEN_B, note=_WAN_NOTE),
    "wan2.2-t2v-a14b": _dit(2, 5120, 40, _WAN14_TOKEN_B, note=_WAN_NOTE),
    "wan2.2-i2v-a14b": _dit(2, 5120, 40, _WAN14_TOKEN_B, note=_WAN_NOTE),
    "wan2.2-ti2v-5b": _dit(2, 3072, 30,
                           round(30 * (6 * 3072 ** 2 + 2 * 3072 * 14336) / 1e9, 3),
                           note=_WAN_NOTE),
    "hunyuanvideo": _dit(1, 3072, 60, round(60 * 12 * 3072 ** 2 / 1e9, 3), 256,
                         note="embedded (distilled) guidance; 20 double + 40 single blocks"),
    "mochi-1": _dit(2, 3072, 48, 0, 256, note="AsymmDiT; per-token share unknown (estimate)"),
    "cogvideox-5b": _dit(2, 3072, 42, round(42 * 12 * 3072 ** 2 / 1e9, 3), 226,
                         note="full 3D attention with the text"),
    "cogvideox-2b": _dit(2, 1920, 30, round(30 * 12 * 1920 ** 2 / 1e9, 3), 226,
                         note="full 3D attention with the text"),
    "open-sora-2.0": _dit(2, 3072, 57, _FLUX_TOKEN_B, 512,
                          note="FLUX-like layout (19 double + 38 single) (estimate)"),
    # No layout recorded: all parameters per token, hidden size from the parameter count.
    "hunyuanimage-2.1": _dit(2, 0, 0, 0, note="layout not recorded (estimate)"),
    "hunyuanvideo-1.5": _dit(2, 0, 0, 0, note="layout not recorded; sparse attention ignored "
                             "(estimate, high)"),
    "stable-cascade": _dit(2, 0, 0, 0, note="Stage C prior only; layout not recorded (estimate)"),
}

COMPUTE_FIELDS = ("cfg_passes", "hidden_size", "attention_layers", "token_params_b",
                  "text_tokens", "context_images", "gflops_per_pass",
                  "attention_gflops_per_pass", "per_frame_attention")


def _compute_fields(did):
    c = DIFFUSION_COMPUTE[did]
    out = {k: c.get(k, False if k == "per_frame_attention" else 0) for k in COMPUTE_FIELDS}
    for k in ("token_params_b", "gflops_per_pass", "attention_gflops_per_pass"):
        out[k] = float(out[k])
    return out, f"compute: {c['note']}" if c.get("note") else ""


def build_diffusion(csv_path):
    rows = list(csv.DictReader(open(csv_path, newline="", encoding="utf-8")))
    out = []
    for r in rows:
        d = DIFFUSION_DEFAULTS[r["id"]]
        kind, w, h, steps, frames, lat, tlat, patch, active, basis = d
        params = float(r["denoiser_params_b"])
        notes = [r["notes"].strip().rstrip(".")] if r["notes"].strip() else []
        notes.append(f"modality {r['modality']}; {r['architecture']}")
        notes.append(f"text encoders: {r['text_encoders']}")
        notes.append(f"defaults: {basis}")
        notes.append(f"VRAM basis: {r['vram_basis']}")
        if r["max_frames_or_length"]:
            notes.append(f"length: {r['max_frames_or_length']}")
        compute, cnote = _compute_fields(r["id"])
        if cnote:
            notes.append(cnote)
        out.append({
            "id": r["id"], "name": r["name"], "aliases": [], "family": r["family"],
            "org": r["org"], "kind": kind, "architecture": r["architecture"], "params_b": params,
            "active_params_b": active if active else params,
            "text_encoder_params_b": float(r["text_encoder_params_b"]),
            "vae_params_b": 0.0, "width": w, "height": h, "steps": steps, "frames": frames,
            "latent_downsample": lat, "temporal_downsample": tlat, "patch_size": patch,
            **compute, "vram_min_gb": float(r["vram_min_gb"] or 0),
            "vram_recommended_gb": float(r["vram_recommended_gb"] or 0),
            "release_date": r["release_date"], "license": r["license"], "hf_repo": r["hf_repo"],
            "notes": "; ".join(notes), "source": "diffusion-csv",
        })
    for a in DIFFUSION_ADDED:
        compute, cnote = _compute_fields(a["id"])
        out.append({
            "id": a["id"], "name": a["name"], "aliases": [], "family": a["family"],
            "org": a["org"], "kind": a["kind"], "architecture": a["architecture"],
            "params_b": a["params_b"], "active_params_b": a["params_b"],
            "text_encoder_params_b": float(a["text_encoder_params_b"]), "vae_params_b": 0.0,
            "width": a["width"], "height": a["height"], "steps": a["steps"],
            "frames": a["frames"], "latent_downsample": a["latent_downsample"],
            "temporal_downsample": a["temporal_downsample"], "patch_size": a["patch_size"],
            **compute, "vram_min_gb": 0.0, "vram_recommended_gb": 0.0,
            "release_date": a["release_date"], "license": a["license"], "hf_repo": a["hf_repo"],
            "notes": "; ".join(x for x in (a["notes"], cnote) if x), "source": "diffusion-added",
        })
    return out


def diffusion_alias_candidates(d):
    c = [d["name"].lower()]
    c.append(re.sub(r"\s*\([^)]*\)", "", d["name"]).strip().lower())
    c.append(d["hf_repo"].lower())
    return c


# ============================================================================================
# Quantizations
# ============================================================================================
# llama.cpp tools/quantize/quantize.cpp lists, per ftype, the size of a Llama-3-8B GGUF in GiB
# and the perplexity increase over F16 (wikitext-2). bpw = GiB * 2^30 * 8 / 8.03e9 parameters.
LLAMA3_8B_PARAMS = 8.03e9
# Llama-3-8B F16 perplexity used to turn +ppl into a ratio (wikitext-2, 512-token chunks, as in
# llama.cpp's quantization discussions; approximate).
LLAMA3_8B_F16_PPL = 6.23
# Real GGUF files keep output.weight (and often token_embd) at ~6 bits: on Llama-3-8B Q4_0 files
# measure 4.64 bpw against the 4.5 bpw block format. i-quants get the same +0.14 (estimate).
IQ_OVERHEAD_BPW = 0.14

# id: (family, nominal bits, size GiB or None, +ppl or None, nominal bpw if no size, runtimes key,
#      aliases, note)
_GGUF = [
    ("Q2_K", "gguf-k", 2, 2.96, 3.5199, None, ["q2k", "UD-Q2_K_XL"],
     "2-bit K-quant mix (Q2_K blocks 2.625 bpw, attention/output tensors kept higher)"),
    ("Q3_K_S", "gguf-k", 3, 3.41, 1.6321, None, [], "3-bit K-quant, small mix (Q3_K 3.4375 bpw)"),
    ("Q3_K_M", "gguf-k", 3, 3.74, 0.6569, None, ["Q3_K", "UD-Q3_K_XL"],
     "3-bit K-quant, medium mix"),
    ("Q3_K_L", "gguf-k", 3, 4.03, 0.5562, None, [], "3-bit K-quant, large mix"),
    ("Q4_0", "gguf-legacy", 4, 4.34, 0.4685, None, ["q4"],
     "4-bit legacy: 18 bytes per 32 weights = 4.5 bpw; output tensor Q6_K"),
    ("Q4_1", "gguf-legacy", 4, 4.78, 0.4511, None, [], "4-bit legacy with offset: 5.0 bpw blocks"),
    ("Q4_K_S", "gguf-k", 4, 4.37, 0.2689, None, [], "4-bit K-quant, small mix (Q4_K 4.5 bpw)"),
    ("Q4_K_M", "gguf-k", 4, 4.58, 0.1754, None, ["Q4_K", "UD-Q4_K_XL", "Q4_K_M (i1)"],
     "4-bit K-quant, medium mix: Q6_K for half of attn_v and ffn_down"),
    ("Q5_0", "gguf-legacy", 5, 5.21, 0.1316, None, [], "5-bit legacy: 5.5 bpw blocks"),
    ("Q5_1", "gguf-legacy", 5, 5.65, 0.1062, None, [], "5-bit legacy with offset: 6.0 bpw blocks"),
    ("Q5_K_S", "gguf-k", 5, 5.21, 0.1049, None, [], "5-bit K-quant, small mix (Q5_K 5.5 bpw)"),
    ("Q5_K_M", "gguf-k", 5, 5.33, 0.0569, None, ["Q5_K"], "5-bit K-quant, medium mix"),
    ("Q6_K", "gguf-k", 6, 6.14, 0.0217, None, ["UD-Q6_K_XL"], "6-bit K-quant: 6.5625 bpw blocks"),
    ("Q8_0", "gguf-legacy", 8, 7.96, 0.0026, None, ["q8"], "8-bit: 34 bytes per 32 weights"),
    # i-quants: the quantize table gives only the nominal bpw of the format.
    ("IQ1_S", "gguf-iq", 1.56, None, None, 1.5625, [], "1.56 bpw i-quant (needs an imatrix)"),
    ("IQ1_M", "gguf-iq", 1.75, None, None, 1.75, [], "1.75 bpw i-quant (needs an imatrix)"),
    ("IQ2_XXS", "gguf-iq", 2.06, None, None, 2.0625, [], "2.06 bpw i-quant"),
    ("IQ2_XS", "gguf-iq", 2.31, None, None, 2.3125, [], "2.31 bpw i-quant"),
    ("IQ2_S", "gguf-iq", 2.5, None, None, 2.5, [], "2.5 bpw i-quant"),
    ("IQ2_M", "gguf-iq", 2.7, None, None, 2.7, [], "2.7 bpw i-quant mix"),
    ("IQ3_XXS", "gguf-iq", 3.06, None, None, 3.0625, [], "3.06 bpw i-quant"),
    ("IQ3_XS", "gguf-iq", 3.3, None, None, 3.3, [], "3.3 bpw i-quant mix"),
    ("IQ3_S", "gguf-iq", 3.44, None, None, 3.4375, [], "3.44 bpw i-quant"),
    ("IQ3_M", "gguf-iq", 3.66, None, None, 3.66, [], "3.66 bpw i-quant mix"),
    ("IQ4_XS", "gguf-iq", 4.25, None, None, 4.25, [], "4.25 bpw non-linear i-quant"),
    ("IQ4_NL", "gguf-iq", 4.5, None, None, 4.5, [], "4.5 bpw non-linear, Q4_0-sized blocks"),
]

QUANT_SOURCES = {
    "llama-cpp-quantize": (
        "llama.cpp tools/quantize/quantize.cpp option table: Llama-3-8B GGUF size (GiB) and "
        "perplexity increase over F16 per type. bpw = size x 2^30 x 8 / 8.03e9 parameters "
        "(e.g. Q4_K_M 4.58 GiB -> 4.90 bpw, matching the 4.92 GB Q4_K_M files of Llama 3/3.1 "
        "8B). quality_retention = 6.23 / (6.23 + delta-ppl), 6.23 being the approximate F16 "
        "wikitext-2 perplexity of Llama-3-8B. Llama-3-8B is among the most quantization-"
        "sensitive models: larger models lose less."),
    "llama-cpp-iquant": (
        "llama.cpp quantize table: nominal bits per weight of the i-quant format (no size or "
        "perplexity listed there); bpw = nominal + 0.14, the output-tensor overhead that Q4_0 "
        "files show on Llama-3-8B (4.64 vs 4.5 bpw), an estimate. quality_retention is an "
        "estimate: linear interpolation in bpw on the frontier of the measured K/legacy-quant "
        "points (see llama-cpp-quantize); below Q2_K extrapolated along the Q2_K-Q3_K_S slope "
        "and floored at 0.3. Exception: IQ4_XS takes Q4_K_S's retention, the quality its "
        "llama.cpp PR (#5747) measured it at (each quant's quality_source says which)."),
    "float-formats": (
        "IEEE/bfloat16 storage: 32 or 16 bits per weight exactly. llama.cpp's quantize table "
        "lists F16 +0.0020 and BF16 -0.0050 ppl on Mistral-7B: lossless in practice."),
    "fp8-e4m3": (
        "FP8 E4M3 weights (compressed-tensors / ModelOpt checkpoints): 8 bits plus per-tensor or "
        "per-channel scales (negligible). Embeddings and lm_head usually stay 16-bit, so small "
        "models' files are up to ~15% larger. quality_retention 0.995: estimate from Neural "
        "Magic / Red Hat evaluations reporting ~99-100% accuracy recovery for FP8 Llama 3.x."),
    "fp4-formats": (
        "OCP MX / NVIDIA FP4 block formats: E2M1 values; MXFP4 adds one 8-bit E8M0 scale per 32 "
        "values (4.25 bpw), NVFP4 one FP8 E4M3 scale per 16 values plus a per-tensor FP32 scale "
        "(4.5 bpw). Retention: estimates (NVIDIA reports NVFP4 within ~1% of FP8 on "
        "DeepSeek-R1; MXFP4's coarser scales lose more when applied after training; gpt-oss "
        "ships natively in MXFP4)."),
    "gptq-awq": (
        "GPTQ / AWQ integer weights with group size 128: a 16-bit scale and a packed zero point "
        "per group -> 4 + (16 + 4)/128 = 4.16 bpw (8-bit: 8 + (16 + 8)/128 = 8.19); embeddings "
        "and lm_head stay 16-bit. Retention estimates: Red Hat / Neural Magic report ~98% "
        "average recovery for INT4 W4A16 and >99% for INT8 on Llama 3.1."),
    "exl2": (
        "ExLlamaV2 EXL2: mixed 2-8 bit per layer chosen by measurement; any average bpw "
        "(variable_bpw); 4.65 is the default shown. Retention: interpolated from the llama.cpp "
        "curve at the chosen bpw (estimate)."),
    "mlc": (
        "MLC-LLM quantization codes: q4f16_1 = 4-bit weights, one fp16 scale per 32 weights "
        "(4.5 bpw, the same block layout as GGUF Q4_0, whose retention it takes); q0f16 = "
        "unquantized fp16."),
}

_GGUF_RUNTIMES = ["llama.cpp", "ollama"]

# i-quants whose quality llama.cpp's authors measured against a K-quant: the retention of that
# K-quant is taken instead of the bpw interpolation (which knows nothing of the non-linear grid
# and the imatrix, and put IQ4_XS at 0.92, below Q3_K_L's measured retention per bit).
_IQ_MEASURED_AS = {
    "IQ4_XS": ("Q4_K_S", "llama.cpp PR #5747 (ikawrakow, 2024-02, \"IQ4_XS: a 4.25 bpw "
                         "quantization\") reports perplexity on par with Q4_K_S at a smaller "
                         "file; community KL-divergence comparisons of GGUF types (Artefact2's "
                         "overview, 2024) put the two level too"),
}


def _retention_from_ppl(dppl):
    return LLAMA3_8B_F16_PPL / (LLAMA3_8B_F16_PPL + dppl)


# The tool each quant is made with from 16-bit weights (by quant id, else by family), named
# by run commands when the catalog knows no checkpoint of the quant (each project's README).
QUANTIZE_WITH = {
    "gguf-legacy": "llama.cpp's convert_hf_to_gguf.py then llama-quantize",
    "gguf-k": "llama.cpp's convert_hf_to_gguf.py then llama-quantize",
    "gguf-iq": "llama.cpp's convert_hf_to_gguf.py then llama-quantize with an imatrix",
    "AWQ-4bit": "AutoAWQ or llm-compressor (AWQ, W4A16, group size 128)",
    "GPTQ-4bit": "GPTQModel or llm-compressor (GPTQ, W4A16, group size 128)",
    "GPTQ-8bit": "GPTQModel or llm-compressor (GPTQ, W8A16, group size 128)",
    "FP8": "llm-compressor (FP8_DYNAMIC) or NVIDIA TensorRT Model Optimizer",
    "NVFP4": "NVIDIA TensorRT Model Optimizer (NVFP4)",
    "MXFP4": "llama.cpp's llama-quantize (MXFP4_MOE) or NVIDIA TensorRT Model Optimizer",
    "exl2": "ExLlamaV2's convert.py",
    "mlc": "mlc_llm convert_weight, then mlc_llm gen_config",
}


def build_quants():
    measured = []  # (bpw, retention) of measured GGUF types for interpolation
    quants = []
    for (qid, fam, bits, gib, dppl, nominal, aliases, note) in _GGUF:
        if gib is not None:
            bpw = gib * 2 ** 30 * 8 / LLAMA3_8B_PARAMS
            ret = _retention_from_ppl(dppl)
            measured.append((bpw, ret))
            if any(a.startswith("UD-") for a in aliases):
                note += ("; Unsloth Dynamic 2.0 files of the UD-*_XL name are matched to this "
                         "type: they keep more tensors at higher precision and are usually a few "
                         "percent larger")
            quants.append({
                "id": qid, "aliases": aliases, "family": fam, "bits": float(bits), "bpw": bpw,
                "variable_bpw": False, "quality_retention": ret,
                "quality_source": (f"llama.cpp quantize table: +{dppl} ppl on Llama-3-8B "
                                   f"-> {LLAMA3_8B_F16_PPL}/({LLAMA3_8B_F16_PPL}+{dppl})"),
                "runtimes": list(_GGUF_RUNTIMES), "requires_precision": "",
                "notes": note + (f"; {gib} GiB for Llama-3-8B" if gib else ""),
                "source": "llama-cpp-quantize",
            })
    # Upper (Pareto) frontier of the measured points: a type is kept if no type with fewer or
    # equal bits per weight retains more. Retention of unmeasured formats is interpolated on it.
    measured.sort()
    frontier = []
    for x, y in measured:
        if frontier and abs(frontier[-1][0] - x) < 1e-9:
            frontier[-1] = (x, max(y, frontier[-1][1]))
        elif not frontier or y > frontier[-1][1]:
            frontier.append((x, y))

    def interp(bpw):
        pts = frontier
        if bpw <= pts[0][0]:
            (x0, y0), (x1, y1) = pts[0], pts[1]
            return max(0.3, y0 + (y1 - y0) * (bpw - x0) / (x1 - x0))
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if x0 <= bpw <= x1:
                return y0 + (y1 - y0) * (bpw - x0) / (x1 - x0)
        return pts[-1][1]

    for (qid, fam, bits, gib, dppl, nominal, aliases, note) in _GGUF:
        if gib is None:
            bpw = nominal + IQ_OVERHEAD_BPW
            ret = interp(bpw)
            qsrc = ("estimate: interpolated at this bpw on the frontier of the llama.cpp "
                    "Llama-3-8B measurements (i-quants made with an imatrix usually do better)")
            if qid in _IQ_MEASURED_AS:
                like, why = _IQ_MEASURED_AS[qid]
                ret = next(q["quality_retention"] for q in quants if q["id"] == like)
                qsrc = f"the retention of {like}: {why}"
            quants.append({
                "id": qid, "aliases": aliases, "family": fam, "bits": float(bits),
                "bpw": bpw, "variable_bpw": False, "quality_retention": ret,
                "quality_source": qsrc,
                "runtimes": list(_GGUF_RUNTIMES), "requires_precision": "",
                "notes": note + f"; bpw = nominal {nominal} + {IQ_OVERHEAD_BPW} output-tensor "
                         "overhead (estimate)",
                "source": "llama-cpp-iquant",
            })
    # Q2_K_S: the quantize table's line ("2.96G, +3.1836 ppl @ Llama-3-8B") repeats Q2_K's
    # size, though by llama-quant.cpp's rules the mix is smaller (ffn_down raised to Q4_K in the
    # first eighth of the layers only, attn_output left at Q2_K). Its bpw is the tensor-by-tensor
    # size of Llama-3-8B (catalog/gguf_recipe.h: 2.776 GiB); not a frontier point (size not
    # measured), its retention from the table's perplexity.
    quants.append({
        "id": "Q2_K_S", "aliases": [], "family": "gguf-k", "bits": 2.0, "bpw": 2.97,
        "variable_bpw": False, "quality_retention": _retention_from_ppl(3.1836),
        "quality_source": (f"llama.cpp quantize table: +3.1836 ppl on Llama-3-8B -> "
                           f"{LLAMA3_8B_F16_PPL}/({LLAMA3_8B_F16_PPL}+3.1836)"),
        "runtimes": list(_GGUF_RUNTIMES), "requires_precision": "",
        "notes": ("2-bit K-quant, small mix (Q2_K blocks; attn_v Q4_K with GQA >= 4, ffn_down "
                  "Q4_K in the first eighth of the layers); 2.776 GiB for Llama-3-8B by the "
                  "tensor-by-tensor recipe (the quantize table's 2.96 GiB repeats Q2_K's)"),
        "source": "llama-cpp-quantize",
    })
    q4_0 = next(q for q in quants if q["id"] == "Q4_0")
    quants += [
        {"id": "F32", "aliases": ["fp32", "float32"], "family": "float", "bits": 32.0,
         "bpw": 32.0, "variable_bpw": False, "quality_retention": 1.0,
         "quality_source": "reference precision", "runtimes": ["llama.cpp", "ollama"],
         "requires_precision": "", "notes": "Full precision; rarely used for inference",
         "source": "float-formats"},
        {"id": "F16", "aliases": ["fp16", "float16", "half"], "family": "float", "bits": 16.0,
         "bpw": 16.0, "variable_bpw": False, "quality_retention": 1.0,
         "quality_source": "llama.cpp quantize table: +0.0020 ppl on Mistral-7B (lossless)",
         "runtimes": ["llama.cpp", "ollama", "vllm", "sglang", "mlx", "tensorrt-llm",
                      "exllamav2"],
         "requires_precision": "", "notes": "16-bit weights (safetensors or GGUF)",
         "source": "float-formats"},
        {"id": "BF16", "aliases": ["bfloat16"], "family": "float", "bits": 16.0, "bpw": 16.0,
         "variable_bpw": False, "quality_retention": 1.0,
         "quality_source": "llama.cpp quantize table: -0.0050 ppl on Mistral-7B (lossless)",
         "runtimes": ["llama.cpp", "ollama", "vllm", "sglang", "mlx", "tensorrt-llm"],
         "requires_precision": "",
         "notes": ("Native checkpoint format of most current models; GPUs without BF16 math "
                   "(pre-Ampere NVIDIA, RDNA2) convert to FP16/FP32"),
         "source": "float-formats"},
        {"id": "FP8", "aliases": ["fp8-e4m3", "e4m3", "FP8 E4M3", "w8a8-fp8"], "family": "fp8",
         "bits": 8.0, "bpw": 8.0, "variable_bpw": False, "quality_retention": 0.995,
         "quality_source": "estimate: FP8 W8A8 evaluations report ~99-100% accuracy recovery",
         "runtimes": ["vllm", "sglang", "tensorrt-llm"], "requires_precision": "FP8",
         "notes": ("Needs FP8 tensor cores to run natively (Ada, Hopper, Blackwell, CDNA3+, "
                   "RDNA4, Gaudi 2+); vLLM can also run FP8 weights as W8A16 on Ampere via "
                   "Marlin kernels"),
         "source": "fp8-e4m3"},
        {"id": "NVFP4", "aliases": ["nvfp4"], "family": "fp4", "bits": 4.0, "bpw": 4.5,
         "variable_bpw": False, "quality_retention": 0.98,
         "quality_source": ("estimate: NVIDIA reports NVFP4 within ~1% of FP8 accuracy "
                            "(DeepSeek-R1-0528)"),
         "runtimes": ["vllm", "sglang", "tensorrt-llm"], "requires_precision": "FP4",
         "notes": "Native on Blackwell FP4 tensor cores", "source": "fp4-formats"},
        {"id": "MXFP4", "aliases": ["mxfp4"], "family": "fp4", "bits": 4.0, "bpw": 4.25,
         "variable_bpw": False, "quality_retention": 0.97,
         "quality_source": ("estimate for post-training MXFP4 (coarser power-of-two scales than "
                            "NVFP4); 1.0 for gpt-oss, trained and released in MXFP4"),
         "runtimes": ["llama.cpp", "ollama", "vllm", "sglang", "tensorrt-llm", "mlx"],
         "requires_precision": "",
         "notes": ("No hardware requirement: llama.cpp, vLLM (Marlin/Triton) and MLX dequantize "
                   "in software on any GPU; native FP4 math on Blackwell and MI350. gpt-oss "
                   "keeps only MoE expert weights in MXFP4 (attention in BF16)"),
         "source": "fp4-formats"},
        {"id": "GPTQ-4bit", "aliases": ["gptq", "gptq-int4", "GPTQ-4bit g128",
                                        "GPTQ-4bit g128 act-order", "w4a16"],
         "family": "gptq", "bits": 4.0, "bpw": 4 + 20 / 128, "variable_bpw": False,
         "quality_retention": 0.98,
         "quality_source": "estimate: ~98% average recovery reported for INT4 W4A16 (Llama 3.1)",
         "runtimes": ["vllm", "sglang", "exllamav2", "tensorrt-llm"], "requires_precision": "",
         "notes": "Group size 128; 4.16 bpw from scales and zero points", "source": "gptq-awq"},
        {"id": "GPTQ-8bit", "aliases": ["gptq-int8", "w8a16"], "family": "gptq", "bits": 8.0,
         "bpw": 8 + 24 / 128, "variable_bpw": False, "quality_retention": 0.995,
         "quality_source": "estimate: >99% recovery reported for 8-bit integer weights",
         "runtimes": ["vllm", "sglang", "exllamav2", "tensorrt-llm"], "requires_precision": "",
         "notes": "Group size 128; 8.19 bpw", "source": "gptq-awq"},
        {"id": "AWQ-4bit", "aliases": ["awq", "awq-int4"], "family": "awq", "bits": 4.0,
         "bpw": 4 + 20 / 128, "variable_bpw": False, "quality_retention": 0.98,
         "quality_source": "estimate: as GPTQ-4bit (activation-aware INT4 W4A16, group 128)",
         "runtimes": ["vllm", "sglang", "tensorrt-llm"], "requires_precision": "",
         "notes": "Group size 128; 4.16 bpw", "source": "gptq-awq"},
    ]
    exl2_ret = interp(4.65)
    quants.append({
        "id": "EXL2", "aliases": ["exl2", "exllamav2"], "family": "exl2", "bits": 4.65,
        "bpw": 4.65, "variable_bpw": True, "quality_retention": exl2_ret,
        "quality_source": "estimate: llama.cpp curve interpolated at 4.65 bpw",
        "runtimes": ["exllamav2"], "requires_precision": "",
        "notes": "Any bpw from ~2 to 8 (e.g. EXL2-4.0bpw); 4.65 is the default shown",
        "source": "exl2"})
    quants += [
        {"id": "q4f16_1", "aliases": ["mlc-q4f16_1", "q4f16"], "family": "mlc", "bits": 4.0,
         "bpw": 4.5, "variable_bpw": False, "quality_retention": q4_0["quality_retention"],
         "quality_source": "as GGUF Q4_0 (same 32-weight symmetric blocks with an fp16 scale)",
         "runtimes": ["mlc-llm"], "requires_precision": "",
         "notes": "MLC-LLM default 4-bit format", "source": "mlc"},
        {"id": "q0f16", "aliases": ["mlc-q0f16"], "family": "mlc", "bits": 16.0, "bpw": 16.0,
         "variable_bpw": False, "quality_retention": 1.0,
         "quality_source": "unquantized fp16", "runtimes": ["mlc-llm"],
         "requires_precision": "", "notes": "MLC-LLM unquantized fp16", "source": "mlc"},
    ]
    for q in quants:
        q["quantize_with"] = QUANTIZE_WITH.get(q["id"], QUANTIZE_WITH.get(q["family"], ""))
    return quants


# ============================================================================================
# Runtimes
# ============================================================================================
RUNTIME_SOURCES = {
    "project-docs": (
        "Each project's README / documentation (2025): supported backends, weight formats, "
        "multi-GPU modes and the basic launch command. Command placeholders: {model} = catalog "
        "model id, {hf_repo} = Hugging Face repo, {ollama_tag}, {quant} = quant id, {gpus} = GPU "
        "count, {context} = context length in tokens, {kv_cache} = KV cache type (f16, or q8_0 where f16 does not fit), "
        "{gguf} = `-hf <repo>:<quant>` for a GGUF repo the catalog knows (models[].gguf_repo), "
        "else `-m <model>-<quant>.gguf` (a file to download or convert); {checkpoint} = the "
        "weights at the quant (the Hugging Face repo for 16-bit weights and the release quant, "
        "models[].awq_repo / gptq_repo / fp8_repo, else a local directory the quant's "
        "quantize_with tool writes first); {tp} / {pp} = tensor / pipeline parallel size (the "
        "GPUs the estimate used, split as it assumed); {gpu_layers} = layers on the GPUs (all "
        "of them unless the estimate offloads); {split} = llama.cpp's multi-GPU flags (layer "
        "or row split, and a tensor split by memory for mixed rigs); {ollama_model} = "
        "`hf.co/<gguf repo>:<quant>` where a GGUF repo is known, else the library tag (which "
        "serves tag_quant); {kv_env} = Ollama's server settings for a q8_0 KV cache; "
        "{exl_split} = ExLlamaV2's multi-GPU flag (` -gs auto` by layers, ` -tp` tensor "
        "parallel)."),
}

RUNTIMES = [
    {"id": "llama.cpp", "name": "llama.cpp", "aliases": ["llamacpp", "llama-server", "ggml"],
     "platforms": ["CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "CPU"],
     "quant_families": ["gguf-legacy", "gguf-k", "gguf-iq", "float", "fp4"],
     "parallelism": ["layer", "tensor"], "serving": True,
     "command": ("llama-server {gguf} -c {context} -ngl {gpu_layers}{split} -ctk {kv_cache} "
                 "-ctv {kv_cache}"),
     "notes": ("llama-server: parallel slots with continuous batching (lower aggregate "
               "throughput than vLLM/SGLang). Multi-GPU splits layers (--split-mode layer; "
               "'row' splits tensors but is rarely faster). GGUF repos are known for the "
               "models llmfit lists them for (ggml-org, unsloth, bartowski copies); for the "
               "rest the command names a local file to download or convert. CPU+GPU offload "
               "with -ngl / -ot."),
     "source": "project-docs"},
    {"id": "ollama", "name": "Ollama", "aliases": [],
     "platforms": ["CUDA", "ROCm", "Metal", "CPU"],
     "quant_families": ["gguf-legacy", "gguf-k", "gguf-iq", "float", "fp4"],
     "parallelism": ["layer"], "serving": False, "command": "ollama run {ollama_model}",
     "tag_quant": "Q4_K_M",
     "server_command": "OLLAMA_CONTEXT_LENGTH={context}{kv_env} ollama serve",
     "notes": ("llama.cpp-based; library models by tag (default Q4_K_M); any GGUF repo via "
               "`ollama run hf.co/<gguf repo>:<quant>`. Splits layers across GPUs and "
               "offloads the rest to CPU automatically. Concurrency via OLLAMA_NUM_PARALLEL, "
               "not built for high-throughput serving."),
     "source": "project-docs"},
    {"id": "vllm", "name": "vLLM", "aliases": [],
     "platforms": ["CUDA", "ROCm", "SYCL", "CPU"],
     "quant_families": ["float", "fp8", "fp4", "gptq", "awq"],
     "parallelism": ["tensor", "pipeline", "expert"], "serving": True,
     "command": ("vllm serve {checkpoint} --tensor-parallel-size {tp} --pipeline-parallel-size {pp} "
                 "--max-model-len {context}"),
     "notes": ("PagedAttention + continuous batching; OpenAI-compatible server. Intel GPUs via "
               "the XPU backend (SYCL), Gaudi via the vllm-gaudi plugin, Apple not supported. "
               "Weights must fit in GPU memory (CPU offload is limited)."),
     "source": "project-docs"},
    {"id": "sglang", "name": "SGLang", "aliases": [],
     "platforms": ["CUDA", "ROCm"],
     "quant_families": ["float", "fp8", "fp4", "gptq", "awq"],
     "parallelism": ["tensor", "pipeline", "expert"], "serving": True,
     "command": ("python -m sglang.launch_server --model-path {checkpoint} --tp {tp} "
                 "--pp-size {pp} --context-length {context}"),
     "notes": "RadixAttention prefix caching + continuous batching; OpenAI-compatible server",
     "source": "project-docs"},
    {"id": "mlx", "name": "MLX (mlx-lm)", "aliases": ["mlx-lm", "mlx_lm"],
     "platforms": ["Metal"], "quant_families": ["float", "fp4"],
     "parallelism": ["layer"], "serving": False,
     "command": "mlx_lm.generate --model {hf_repo} --prompt \"Hello\" --max-tokens 256",
     "notes": ("Apple silicon only. Loads Hugging Face safetensors directly (bf16); its own "
               "3/4/6/8-bit group formats come from mlx-community/<model>-4bit repos or "
               "`mlx_lm.convert --hf-path {hf_repo} -q` (no catalog quant family for them yet). "
               "Pipeline-style sharding across Macs via mlx.distributed; `mlx_lm.server` serves "
               "an OpenAI-compatible API."),
     "source": "project-docs"},
    {"id": "exllamav2", "name": "ExLlamaV2", "aliases": ["exllama", "tabbyapi"],
     "platforms": ["CUDA", "ROCm"], "quant_families": ["exl2", "gptq", "float"],
     "parallelism": ["layer", "tensor"], "serving": False,
     "command": "python test_inference.py -m {checkpoint} -l {context}{exl_split} -p \"Hello\"",
     "notes": ("Loads a local directory: the command downloads or converts it first; TabbyAPI provides "
               "an OpenAI-compatible server. Auto GPU split by layers; tensor-parallel mode "
               "since v0.2."),
     "source": "project-docs"},
    {"id": "tensorrt-llm", "name": "TensorRT-LLM", "aliases": ["trt-llm", "trtllm"],
     "platforms": ["CUDA"], "quant_families": ["float", "fp8", "fp4", "gptq", "awq"],
     "parallelism": ["tensor", "pipeline", "expert"], "serving": True,
     "command": ("trtllm-serve {checkpoint} --tp_size {tp} --pp_size {pp} "
                 "--max_seq_len {context}"),
     "notes": "NVIDIA only; in-flight batching; FP8/NVFP4 kernels for Hopper and Blackwell",
     "source": "project-docs"},
    {"id": "mlc-llm", "name": "MLC-LLM", "aliases": ["mlc", "mlc_llm"],
     "platforms": ["CUDA", "ROCm", "Metal", "Vulkan"], "quant_families": ["mlc"],
     "parallelism": ["tensor"], "serving": True,
     "command": ("mlc_llm serve {checkpoint} --overrides "
                 "\"tensor_parallel_shards={gpus};context_window_size={context}\""),
     "notes": ("Compiled (TVM) runtime; continuous batching in `serve`. Prebuilt weights exist "
               "as mlc-ai/<Model>-<quant>-MLC repos for some models only, and the catalog lists "
               "none: the command serves a local directory converted first (mlc_llm "
               "convert_weight, then gen_config)."),
     "source": "project-docs"},
]


# ============================================================================================
# Prices
# ============================================================================================
PRICE_SOURCES = {
    "aws-ondemand-2024": (
        "AWS EC2 on-demand Linux prices, us-east-1, as listed in 2024 (per instance-hour divided "
        "by the GPUs per instance): p5.48xlarge 8x H100 SXM $98.32, p4de.24xlarge 8x A100 80GB "
        "$40.97, p4d.24xlarge 8x A100 40GB $32.77, g5.xlarge 1x A10G $1.006, g4dn.xlarge 1x T4 "
        "$0.526. Instance prices include CPU, RAM and networking; AWS cut P4/P5 prices in "
        "June 2025 (not reflected)."),
    "comparison-article-2026-03": (
        "shared/reference/gpu-comparison-article.txt (MI325X vs H200, cloud pricing as of "
        "March 2026): MI325X from $2.29/h (DigitalOcean, 1x 256 GB; 8x at $18.32/h); H200 from "
        "$3.00/h (Koyeb) to $3.59/h (RunPod) for one GPU (the lowest is recorded); purchase "
        "estimates MI325X $20,000-25,000 and H200 $30,000-35,000: street_usd is the midpoint of "
        "the article's range."),
}

PRICES = [
    {"gpu_id": "nvidia-h100-sxm5-80gb", "cloud_usd_per_hour": 98.32 / 8, "as_of": "2024",
     "source": "aws-ondemand-2024"},
    {"gpu_id": "nvidia-a100-sxm4-80gb", "cloud_usd_per_hour": 40.97 / 8, "as_of": "2024",
     "source": "aws-ondemand-2024"},
    {"gpu_id": "nvidia-a100-sxm4-40gb", "cloud_usd_per_hour": 32.77 / 8, "as_of": "2024",
     "source": "aws-ondemand-2024"},
    {"gpu_id": "nvidia-a10g", "cloud_usd_per_hour": 1.006, "as_of": "2024",
     "source": "aws-ondemand-2024"},
    {"gpu_id": "tesla-t4", "cloud_usd_per_hour": 0.526, "as_of": "2024",
     "source": "aws-ondemand-2024"},
    {"gpu_id": "instinct-mi325x", "street_usd": 22500, "cloud_usd_per_hour": 2.29,
     "as_of": "2026-03", "source": "comparison-article-2026-03"},
    {"gpu_id": "nvidia-h200-sxm-141gb", "street_usd": 32500, "cloud_usd_per_hour": 3.00,
     "as_of": "2026-03", "source": "comparison-article-2026-03"},
]
