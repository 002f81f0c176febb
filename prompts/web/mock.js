// A mock interview's page: the per-question timer (amber after 3 minutes, red after 5), and an
// answer spoken into the microphone (MediaRecorder), sent to the server to be transcribed, shown
// for correction and played back before it is submitted.
"use strict";
(function () {
  const AMBER_S = 180, RED_S = 300;
  document.addEventListener("DOMContentLoaded", function () {
    const form = document.getElementById("answer-form");
    if (!form) return;
    const started = Date.now();
    const timer = document.getElementById("timer");
    const elapsed = function () { return (Date.now() - started) / 1000; };
    const tick = function () {
      const s = Math.floor(elapsed());
      timer.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
      timer.classList.toggle("amber", s >= AMBER_S && s < RED_S);
      timer.classList.toggle("red", s >= RED_S);
    };
    tick();
    setInterval(tick, 1000);
    const stamp = function (f) { f.addEventListener("submit", function () {
      f.querySelectorAll("input[name=elapsed_s]").forEach(function (i) { i.value = elapsed().toFixed(1); });
    }); };
    stamp(form);
    document.querySelectorAll("form.carry-elapsed").forEach(stamp);

    const record = document.getElementById("record"), stop = document.getElementById("stop");
    const status = document.getElementById("mic-status"), playback = document.getElementById("playback");
    const answer = document.getElementById("answer"), recording = document.getElementById("recording");
    const submit = document.getElementById("submit");
    if (!navigator.mediaDevices || !window.MediaRecorder) { status.textContent = status.dataset.noMic; return; }
    record.hidden = false;
    // Chromium and Firefox record Opus in WebM or Ogg, Safari AAC in MP4: the server decodes all three.
    const kinds = [["audio/webm;codecs=opus", "webm"], ["audio/ogg;codecs=opus", "ogg"], ["audio/mp4", "m4a"], ["audio/webm", "webm"]];
    const kind = kinds.find(function (k) { return MediaRecorder.isTypeSupported(k[0]); });
    let recorder = null, chunks = [];
    record.addEventListener("click", function () {
      navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
        chunks = [];
        recorder = kind ? new MediaRecorder(stream, { mimeType: kind[0] }) : new MediaRecorder(stream);
        recorder.addEventListener("dataavailable", function (e) { if (e.data.size) chunks.push(e.data); });
        recorder.addEventListener("stop", function () {
          stream.getTracks().forEach(function (t) { t.stop(); });
          send(new Blob(chunks, { type: recorder.mimeType }));
        });
        recorder.start();
        record.hidden = true; stop.hidden = false; stop.focus();
        status.textContent = status.dataset.recording;
      }).catch(function (e) { status.textContent = status.dataset.noMic + " (" + e.name + ")"; });
    });
    stop.addEventListener("click", function () {
      if (recorder && recorder.state !== "inactive") recorder.stop();
      stop.hidden = true;
    });
    function send(blob) {
      playback.src = URL.createObjectURL(blob);
      playback.hidden = false;
      status.textContent = status.dataset.transcribing;
      submit.disabled = true;
      const ext = blob.type.indexOf("mp4") >= 0 ? "m4a" : blob.type.indexOf("ogg") >= 0 ? "ogg" : "webm";
      const data = new FormData();
      data.append("file", blob, "answer." + ext);
      fetch(form.dataset.recordingUrl, { method: "POST", body: data, headers: { "x-ivd-token": form.dataset.token } })
        .then(function (r) { return r.json().then(function (j) { return [r.ok, j]; }); })
        .then(function (res) {
          const ok = res[0], j = res[1];
          if (!ok) { status.textContent = j.error || "error"; return; }
          answer.value = j.text;
          recording.value = j.name;
          status.textContent = status.dataset.heard + (j.warnings && j.warnings.length ? " · " + j.warnings.join("; ") : "");
          answer.focus();
        })
        .catch(function (e) { status.textContent = String(e); })
        .finally(function () { submit.disabled = false; record.hidden = false; });
    }
  });
})();
