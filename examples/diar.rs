use interview_doctor::audio::{decode, features, vad};
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let a = decode::decode(std::path::Path::new(&p), false).unwrap();
    let models = interview_doctor::models::Models { dir: "models".into() };
    let act = vad::detect(&a.mono, vad::VadKind::Earshot, &models).unwrap();
    let fr = features::frames(&a.mono);
    for r in &act.regions {
        let (s, e) = (features::frame_at(r.start_s), features::frame_at(r.end_s));
        let v = features::voice_print(&fr, s, e);
        let mut f0: Vec<f32> = fr.f0[s..e.min(fr.f0.len())].iter().copied().filter(|&x| x > 0.0).collect();
        f0.sort_by(f32::total_cmp);
        println!("{:7.2}-{:7.2} f0med {:6.1} voiced {:3} print {:?}", r.start_s, r.end_s, f0.get(f0.len()/2).copied().unwrap_or(0.0), f0.len(), v.map(|v| v.iter().take(4).map(|x| (x*10.0).round()/10.0).collect::<Vec<_>>()));
    }
}
