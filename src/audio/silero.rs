//! Silero VAD v6 through ONNX Runtime: 512-sample frames (32 ms at 16 kHz) with the 64 samples
//! before each frame as context and a recurrent state carried across frames, as the reference
//! `OnnxWrapper` of the `silero-vad` package feeds it.

use ort::session::Session;
use ort::value::Tensor;

use super::AudioError;
use crate::models::{self, Models};

pub const FRAME: usize = 512;
const CONTEXT: usize = 64;

fn model_error(message: impl ToString) -> AudioError {
    AudioError::Model { what: "Silero VAD", message: message.to_string() }
}

/// Speech probability of every 32 ms frame.
pub fn probabilities(samples: &[f32], models: &Models) -> Result<Vec<f32>, AudioError> {
    let lib = models.file(models::ONNXRUNTIME).map_err(model_error)?;
    let env = models::onnx_environment(&lib).map_err(model_error)?;
    let path = models.file(models::SILERO_VAD).map_err(model_error)?;
    let mut session = Session::builder(&env)
        .map_err(model_error)?
        .with_intra_threads(1)
        .map_err(model_error)?
        .commit_from_file(&path)
        .map_err(model_error)?;
    let mut state = vec![0.0f32; 2 * 128];
    let mut context = vec![0.0f32; CONTEXT];
    let mut out = Vec::with_capacity(samples.len() / FRAME + 1);
    let mut input = vec![0.0f32; CONTEXT + FRAME];
    for chunk in samples.chunks(FRAME) {
        input[..CONTEXT].copy_from_slice(&context);
        input[CONTEXT..CONTEXT + chunk.len()].copy_from_slice(chunk);
        input[CONTEXT + chunk.len()..].fill(0.0);
        context.copy_from_slice(&input[FRAME..]);
        let x = Tensor::from_array(([1usize, CONTEXT + FRAME], input.clone())).map_err(model_error)?;
        let s = Tensor::from_array(([2usize, 1, 128], state.clone())).map_err(model_error)?;
        let sr = Tensor::from_array(((), vec![super::SAMPLE_RATE as i64])).map_err(model_error)?;
        let outputs = session.run(ort::inputs!["input" => x, "state" => s, "sr" => sr]).map_err(model_error)?;
        let (_, p) = outputs["output"].try_extract_tensor::<f32>().map_err(model_error)?;
        out.push(p.first().copied().unwrap_or(0.0));
        let (_, st) = outputs["stateN"].try_extract_tensor::<f32>().map_err(model_error)?;
        if st.len() == state.len() {
            state.copy_from_slice(st);
        }
    }
    Ok(out)
}
