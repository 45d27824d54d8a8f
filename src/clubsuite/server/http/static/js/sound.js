// @ts-check
// Sounds, made in the page with the Web Audio API (nothing is downloaded): a short card sound and a "your turn" cue.
// Off by default; the choice is remembered in this browser. A browser lets a page make sound only after a click, so
// the sound starts working once sound is switched on (a click).

import {store} from "./dom.js";

let context = null;

/** Whether sounds are on (off until the player switches them on). */
export function soundOn() {
  return store.get("sound", false) === true;
}

/** Switch sounds on or off (remembered); switching on plays the cue once, so the player hears what it is. */
export function setSound(on) {
  store.set("sound", on);
  if (on) play("turn");
}

function audio() {
  const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Context) return null;
  if (context === null) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(ctx, frequency, start, length, volume, type = "sine") {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function snap(ctx, start) {
  // a card laid down: a short burst of noise, quickly fading
  const length = Math.floor(ctx.sampleRate * 0.05);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = 0.5;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(start);
}

/** Play ``kind`` ("card" or "turn") when sounds are on; never throws (a page without audio plays nothing). */
export function play(kind) {
  if (!soundOn()) return;
  try {
    const ctx = audio();
    if (ctx === null) return;
    const now = ctx.currentTime;
    if (kind === "card") snap(ctx, now);
    else {
      tone(ctx, 660, now, 0.18, 0.12);
      tone(ctx, 880, now + 0.12, 0.25, 0.12);
    }
  } catch {
    // no sound is better than a broken page
  }
}
