fn main() {
    let p = std::env::args().nth(1).unwrap();
    let a = interview_doctor::audio::decode::decode(std::path::Path::new(&p), false).unwrap();
    println!("{:?} {} s warnings {:?}", a.source, a.duration_s(), a.warnings);
    let spec = hound::WavSpec { channels: 1, sample_rate: 16000, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
    let mut w = hound::WavWriter::create("/tmp/dec.wav", spec).unwrap();
    for v in &a.mono { w.write_sample((v * 32767.0) as i16).unwrap(); }
    w.finalize().unwrap();
}
