"""The lab's glasses: a Bumble host on a `LabController`, linked to a second `LabController`
that the guest kernel sees as hci0 through /dev/vhci.

What the glasses do: HFP hands-free (CVSD over SCO, or mSBC when BT_LAB_HF_CODECS=cvsd,msbc
offers it and the AG picks it; the mic plays a WAV, the speaker records to a WAV), the HF battery indicator (AT+BIEV) and Apple's battery report (AT+IPHONEACCEV), the
voice-recognition button (AT+BVRA=1), an A2DP sink whose SBC is decoded to a WAV (libsbc), and
link loss on demand ("fold").

Control: one line per command on a Unix socket (--control); one line back, "ok ..." or
"error ...". Events go to stdout, one line each, prefixed "event".

    status                      JSON: slc, sco, a2dp, battery sent, address
    wait slc|sco|sco-down|a2dp|gone [s]  waits for that state (default 60 s)
    battery N                   AT+BIEV=2,N; answers what the AG answered (ok/error/no answer)
    apple-battery N             AT+XAPL then AT+IPHONEACCEV=1,1,<N/10 - 1>
    bvra                        AT+BVRA=1 (the button)
    codecs cvsd|cvsd,msbc       the codecs the HF lists (AT+BAC) at the next service-level connection
                                (the SDP record's wideband bit stays as BT_LAB_HF_CODECS set it)
    touch [KEY] [HOLD]          a touch on the temple: AVRCP pass-through KEY (play, pause;
                                default play) pressed then released; answers the AG's response.
                                HOLD s: held that long, the press repeated every second meanwhile
                                (as a held button does: bluetoothd lets go 2 s after the last one)
    mic PATH [DELAY]            the WAV (mono s16: 8 kHz for CVSD, 16 kHz for mSBC) the mic says DELAY s
                                into the next SCO link
    speaker PATH                records what arrives over SCO to PATH (until speaker-stop)
    speaker-stop                closes the speaker WAV; answers the number of samples
    a2dp PATH                   decodes the A2DP stream to PATH (until a2dp-stop); packets
                                that never came (RTP sequence numbers skipped) are silence
                                there, as a speaker plays them, so the WAV keeps the sender's time
    a2dp-stop                   closes it; answers frames and samples, the packets lost, the
                                silence put in, and the RTP timestamp jumps with no loss
    fold                        link loss: the ACL (and SCO) dropped with "connection timeout";
                                the glasses answer no page or inquiry until unfold
    fold-at-mic SECONDS|off     folds (as fold) once the mic has said SECONDS of its WAV (after
                                its delay): mid-command, wherever the command's listener is
    fold-on-sound [off]         folds (as fold) as soon as the speaker gets a packet of sound
                                (a sample above 1 % of full scale): mid-reply, whatever the
                                reply's length, with no client polling in between
    unfold                      the glasses are connectable (and discoverable) again
    phone N COMMAND...          phone N (1-9, LE address D0:D1:D2:D3:D4:0N), a Bumble LE central
                                on the same link, made at its first command (phone.py says what
                                it does: scan, connect, pair, read, write, subscribe...)
    quit
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import logging
import os
import sys
import time
import wave

from bumble import a2dp, avc, avdtp, avrcp, hci, hfp, rfcomm
from bumble.core import PhysicalTransport
from bumble.device import Device, DeviceConfiguration
from bumble.host import Host
from bumble.transport import open_transport

from lab_controller import SCO_PACKET_LENGTH, LabController, LabLink
from phone import Phone

logger = logging.getLogger("glasses-peer")

# Every AT command waits this long for OK: under emulation the AG can take seconds.
AT_TIMEOUT = 15.0
# The mic's packets fill the SCO buffers the controllers advertise (240 or 144 bytes: 15 or 9 ms
# of 8 kHz s16 mono; lab_controller.py says which and why).
SCO_PAYLOAD = SCO_PACKET_LENGTH - SCO_PACKET_LENGTH % 2
SCO_SAMPLE_RATE = 8000
# The HF's codecs (HFP codec ids: CVSD is 1, mSBC 2), from BT_LAB_HF_CODECS ("cvsd" or "cvsd,msbc").
HF_CODECS = [{"cvsd": hfp.AudioCodec.CVSD, "msbc": hfp.AudioCodec.MSBC}[name.strip()]
             for name in os.environ.get("BT_LAB_HF_CODECS", "cvsd").split(",") if name.strip()]
# mSBC over transparent SCO (HFP 1.7, 5.7.4): each 57-byte SBC frame (16 kHz mono, 15 blocks,
# 8 subbands, bitpool 26: 120 samples, 7.5 ms) behind a 2-byte H2 header (0x01, then a 2-bit
# sequence number written twice: 0x08, 0x38, 0xc8, 0xf8) and one byte of padding: 60 bytes.
MSBC_H2 = (0x08, 0x38, 0xC8, 0xF8)
MSBC_FRAME = 57
MSBC_PCM = 240  # bytes of 16 kHz s16 mono in one frame
MSBC_RATE = 16000


def event(text: str) -> None:
    print(f"event {time.monotonic():.3f} {text}", flush=True)


class PatientHf(hfp.HfProtocol):
    """Bumble's HF, with an AT timeout that survives emulation."""

    async def execute_command(self, cmd, timeout=1.0, **kwargs):
        return await super().execute_command(cmd, timeout=max(timeout, AT_TIMEOUT), **kwargs)


class SbcDecoder:
    """libsbc through ctypes (the field's own decoder)."""

    class Sbc(ctypes.Structure):
        _fields_ = [
            ("flags", ctypes.c_ulong), ("frequency", ctypes.c_uint8), ("blocks", ctypes.c_uint8),
            ("subbands", ctypes.c_uint8), ("mode", ctypes.c_uint8), ("allocation", ctypes.c_uint8),
            ("bitpool", ctypes.c_uint8), ("endian", ctypes.c_uint8),
            ("priv", ctypes.c_void_p), ("priv_alloc_base", ctypes.c_void_p),
        ]

    def __init__(self) -> None:
        self.lib = ctypes.CDLL("libsbc.so.1")
        self.state = self.Sbc()
        self.lib.sbc_init(ctypes.byref(self.state), ctypes.c_ulong(0))
        self.out = ctypes.create_string_buffer(8192)

    def decode(self, data: bytes) -> tuple[bytes, int]:
        pcm, frames, offset = bytearray(), 0, 0
        written = ctypes.c_size_t(0)
        while offset < len(data):
            chunk = data[offset:]
            used = self.lib.sbc_decode(
                ctypes.byref(self.state), chunk, ctypes.c_size_t(len(chunk)),
                self.out, ctypes.c_size_t(len(self.out)), ctypes.byref(written))
            if used <= 0:
                break
            pcm += self.out.raw[: written.value]
            offset += used
            frames += 1
        return bytes(pcm), frames

    def channels(self) -> int:
        return 1 if self.state.mode == 0 else 2  # SBC_MODE_MONO is 0

    def rate(self) -> int:
        return [16000, 32000, 44100, 48000][self.state.frequency]


class MsbcCodec:
    """mSBC through libsbc (sbc_init_msbc), in HFP's transparent SCO framing (H2 headers)."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL("libsbc.so.1")
        self.encoder = SbcDecoder.Sbc()
        self.decoder = SbcDecoder.Sbc()
        self.lib.sbc_init_msbc(ctypes.byref(self.encoder), ctypes.c_ulong(0))
        self.lib.sbc_init_msbc(ctypes.byref(self.decoder), ctypes.c_ulong(0))
        self.sequence = 0
        self.pending = bytearray()
        self.out = ctypes.create_string_buffer(4096)
        self.frames_decoded = 0
        self.bytes_skipped = 0

    def encode(self, pcm: bytes) -> bytes:
        """60-byte packets for each whole frame's worth (240 bytes) of 16 kHz s16 PCM."""
        packets = bytearray()
        written = ctypes.c_ssize_t(0)
        for offset in range(0, len(pcm) - MSBC_PCM + 1, MSBC_PCM):
            block = pcm[offset : offset + MSBC_PCM]
            used = self.lib.sbc_encode(ctypes.byref(self.encoder), block, ctypes.c_size_t(MSBC_PCM),
                                       self.out, ctypes.c_size_t(len(self.out)), ctypes.byref(written))
            if used != MSBC_PCM or written.value != MSBC_FRAME:
                raise RuntimeError(f"sbc_encode (mSBC) took {used} bytes and wrote {written.value}")
            packets += bytes([0x01, MSBC_H2[self.sequence % 4]]) + self.out.raw[:MSBC_FRAME] + b"\0"
            self.sequence += 1
        return bytes(packets)

    def decode(self, data: bytes) -> bytes:
        """The PCM of the whole frames received so far: each found by its H2 header and SBC's
        mSBC sync word (0xad); bytes between frames are skipped (and counted)."""
        self.pending += data
        pcm = bytearray()
        written = ctypes.c_size_t(0)
        while True:
            start = next((i for i in range(len(self.pending) - 2) if self.pending[i] == 0x01
                          and self.pending[i + 1] in MSBC_H2 and self.pending[i + 2] == 0xAD), None)
            if start is None:
                keep = min(len(self.pending), 2)
                self.bytes_skipped += len(self.pending) - keep
                del self.pending[: len(self.pending) - keep]
                return bytes(pcm)
            if len(self.pending) < start + 2 + MSBC_FRAME:
                self.bytes_skipped += start
                del self.pending[:start]
                return bytes(pcm)
            frame = bytes(self.pending[start + 2 : start + 2 + MSBC_FRAME])
            used = self.lib.sbc_decode(ctypes.byref(self.decoder), frame, ctypes.c_size_t(MSBC_FRAME),
                                       self.out, ctypes.c_size_t(len(self.out)), ctypes.byref(written))
            if used > 0:
                pcm += self.out.raw[: written.value]
                self.frames_decoded += 1
            self.bytes_skipped += start
            del self.pending[: start + 2 + MSBC_FRAME]


class ScoStats:
    """What crossed one SCO link: the mic's packets sent, the AG's received (bytes, the packet
    sizes seen), over how long — the AG's real pace, printed when the link goes down."""

    def __init__(self, bytes_per_second: int = SCO_SAMPLE_RATE * 2) -> None:
        self.start = time.monotonic()
        self.bytes_per_second = bytes_per_second
        self.mic_packets = self.mic_bytes = 0
        self.speaker_packets = self.speaker_bytes = 0
        self.speaker_sizes: set[int] = set()

    def sent(self, size: int) -> None:
        self.mic_packets += 1
        self.mic_bytes += size

    def received(self, size: int) -> None:
        self.speaker_packets += 1
        self.speaker_bytes += size
        self.speaker_sizes.add(size)

    def describe(self) -> str:
        seconds = max(time.monotonic() - self.start, 1e-6)
        audio = lambda size: size / self.bytes_per_second
        return (f"seconds={seconds:.1f} mic-packets={self.mic_packets} mic-audio-s={audio(self.mic_bytes):.1f} "
                f"ag-packets={self.speaker_packets} ag-audio-s={audio(self.speaker_bytes):.1f} "
                f"ag-sizes={','.join(map(str, sorted(self.speaker_sizes))) or '-'}")


class Glasses:
    def __init__(self, device: Device, peer_controller: LabController, host_controller: LabController):
        self.device = device
        self.glasses_controller = peer_controller
        self.host_controller = host_controller
        self.hf: PatientHf | None = None
        self.slc = asyncio.Event()
        self.sco_up = asyncio.Event()
        self.sco_down = asyncio.Event()
        self.sco_down.set()
        self.a2dp_up = asyncio.Event()
        self.gone = asyncio.Event()
        self.sco_link = None
        self.mic_samples = b""
        self.mic_task: asyncio.Task | None = None
        self.mic_late = 0  # packets' worth of time the mic gave up (the peer ran late)
        self.mic_done = False
        self.speaker: wave.Wave_write | None = None
        self.speaker_samples = 0
        self.sco_first_buffer = False
        self.fold_on_sound = False
        self.fold_at_mic: float | None = None
        self.mic_delay_bytes = 0
        self.mic_rate = SCO_SAMPLE_RATE
        self.msbc: MsbcCodec | None = None  # the SCO link's codec, when it is mSBC
        self.codecs = list(HF_CODECS)  # what the next service-level connection offers
        self.sco_stats = ScoStats()
        self.a2dp_file: wave.Wave_write | None = None
        self.a2dp_path: str | None = None
        self.a2dp_frames = 0
        self.a2dp_samples = 0
        self.a2dp_lost = 0  # RTP packets that never arrived (sequence numbers skipped)
        self.a2dp_gap = 0  # samples of silence put where they were
        self.a2dp_jumps = 0  # RTP timestamps off the samples before them, no packet lost
        self.a2dp_next: tuple[int, int] | None = None  # the next packet's sequence and timestamp
        self.decoder: SbcDecoder | None = None
        self.battery_sent: int | None = None
        self.connection = None
        self.phones: dict[str, Phone] = {}  # the lab's LE centrals, by number
        # AVRCP: the glasses are a controller (their touch sends play/pause) and a target.
        self.avrcp = avrcp.Protocol()
        self.avrcp.on("start", lambda: event("avrcp-connected"))
        self.avrcp.on("stop", lambda: event("avrcp-disconnected"))

    # -- HFP --------------------------------------------------------------------------------

    def configuration(self) -> hfp.HfConfiguration:
        return hfp.HfConfiguration(
            supported_hf_features=[
                hfp.HfFeature.VOICE_RECOGNITION_ACTIVATION,
                hfp.HfFeature.REMOTE_VOLUME_CONTROL,
                hfp.HfFeature.HF_INDICATORS,
            ] + ([hfp.HfFeature.CODEC_NEGOTIATION] if hfp.AudioCodec.MSBC in self.codecs else []),  # AT+BAC, +BCS
            supported_hf_indicators=[hfp.HfIndicator.BATTERY_LEVEL],
            supported_audio_codecs=self.codecs,
        )

    def on_dlc(self, dlc: rfcomm.DLC) -> None:
        event("hfp-rfcomm")
        self.hf = PatientHf(dlc, self.configuration())
        self.hf.on("codec_negotiation", lambda codec: event(f"hfp-codec {codec.name}"))
        asyncio.get_running_loop().create_task(self.run_hf(self.hf))

    async def run_hf(self, hf: PatientHf) -> None:
        try:
            await hf.initiate_slc()
        except Exception as error:  # the AG's answer, or its silence, is what we report
            event(f"hfp-slc-failed {type(error).__name__} {error}")
            return
        self.slc.set()
        event("hfp-slc-ready")
        await hf.run()

    async def at(self, command: str) -> str:
        if not self.hf or not self.slc.is_set():
            return "error no service-level connection"
        try:
            await self.hf.execute_command(command)
            return "ok OK"
        except asyncio.TimeoutError:
            return f"ok no-answer (the AG sent no OK within {AT_TIMEOUT:.0f} s)"
        except hfp.HfpProtocolError as error:
            return f"ok {error.error_name or 'ERROR'}"

    # -- SCO --------------------------------------------------------------------------------

    def wideband(self) -> bool:
        return self.hf is not None and self.hf.active_codec == hfp.AudioCodec.MSBC

    def on_sco_request(self, connection, link_type: int) -> None:
        esco = link_type == hci.HCI_Connection_Complete_Event.LinkType.ESCO
        parameters = hfp.ESCO_PARAMETERS[
            hfp.DefaultCodecParameters.ESCO_MSBC_T2 if self.wideband()
            else hfp.DefaultCodecParameters.ESCO_CVSD_S1 if esco
            else hfp.DefaultCodecParameters.SCO_CVSD_D1
        ]
        asyncio.get_running_loop().create_task(self.device.send_command(
            hci.HCI_Enhanced_Accept_Synchronous_Connection_Request_Command(
                bd_addr=connection.peer_address, **parameters.asdict())))

    def on_sco_connection(self, sco_link) -> None:
        self.sco_link = sco_link
        self.sco_first_buffer = False
        self.msbc = MsbcCodec() if self.wideband() else None
        self.sco_stats = ScoStats(MSBC_RATE // 2 if self.msbc else SCO_SAMPLE_RATE * 2)  # mSBC: 60 bytes per 7.5 ms
        if self.speaker and self.speaker_samples == 0:
            self.speaker.setframerate(MSBC_RATE if self.msbc else SCO_SAMPLE_RATE)
        sco_link.on("disconnection", self.on_sco_disconnection)
        self.sco_up.set()
        self.sco_down.clear()
        event(f"sco-connected handle=0x{sco_link.handle:04x} codec={'mSBC' if self.msbc else 'CVSD'}")
        self.mic_task = asyncio.get_running_loop().create_task(self.run_mic(sco_link))

    def on_sco_disconnection(self, _reason=None) -> None:
        event("sco-disconnected")
        event(f"sco-stats {self.sco_stats.describe()}"
              + (f" msbc-frames-decoded={self.msbc.frames_decoded} msbc-bytes-skipped={self.msbc.bytes_skipped}" if self.msbc else ""))
        self.sco_up.clear()
        self.sco_down.set()
        self.sco_link = None
        if self.mic_task:
            self.mic_task.cancel()

    def on_sco_data(self, data: bytes) -> None:
        """What the AG sends over SCO (the glasses controller hands the payload over directly)."""
        if not self.sco_first_buffer:
            self.sco_first_buffer = True
            event(f"sco-first-buffer bytes={len(data)}")
        self.sco_stats.received(len(data))
        if self.msbc:
            data = self.msbc.decode(data)
        if self.speaker:
            self.speaker.writeframes(data)
            self.speaker_samples += len(data) // 2
        if self.fold_on_sound and max(map(abs, memoryview(data).cast("h")), default=0) > 327:
            self.fold_on_sound = False
            event("sound-at-speaker: folding")
            asyncio.get_running_loop().create_task(self.fold())

    async def run_mic(self, sco_link) -> None:
        """Sends the mic WAV (then silence) over SCO: every 30 ms, the packets due by then. CVSD
        carries the 8 kHz PCM itself; mSBC the WAV's 16 kHz PCM encoded, 60 bytes per 7.5 ms.

        A controller's SCO clock cannot run ahead: when the peer falls behind (TCG stalls the
        VM for tens of milliseconds), the lost time is given up — the clock is re-based — and
        never made up in a burst, which under emulation fed on itself (the AG answers each
        packet with one of its own) until HCI commands waited seconds behind audio. The WAV's
        samples are all sent, in order: the speech arrives intact, later."""
        msbc = self.msbc
        if msbc:
            pcm = self.mic_samples if self.mic_rate == MSBC_RATE else b""
            if self.mic_samples and self.mic_rate != MSBC_RATE:
                event(f"mic-wrong-rate {self.mic_rate} Hz on an mSBC link (16000 Hz wanted): silence instead")
            stream = bytearray(msbc.encode(pcm + bytes(-len(pcm) % MSBC_PCM)))
            per_second = MSBC_RATE // 2  # 60 bytes every 7.5 ms
            delay = self.mic_delay_bytes // (MSBC_PCM // 60)
        else:
            stream = bytearray(self.mic_samples)
            per_second = SCO_SAMPLE_RATE * 2
            delay = self.mic_delay_bytes
        speech_end = len(stream)
        max_burst = max(1, round(0.06 * per_second / SCO_PAYLOAD))  # 60 ms at once at most
        position = 0
        self.mic_done = False
        clock = time.monotonic()
        sent = 0
        speaking = False
        while True:
            now = time.monotonic()
            due = int((now - clock) * per_second) // SCO_PAYLOAD
            if due - sent > max_burst:
                self.mic_late += due - sent - max_burst
                clock += (due - sent - max_burst) * SCO_PAYLOAD / per_second
                due = sent + max_burst
            while sent < due:
                if msbc and len(stream) - position < SCO_PAYLOAD:
                    stream += msbc.encode(bytes(MSBC_PCM * 8))  # silence, as whole frames
                chunk = bytes(stream[position : position + SCO_PAYLOAD])
                position += len(chunk)
                self.glasses_controller.send_sco_from_host(sco_link.handle, chunk.ljust(SCO_PAYLOAD, b"\0"))
                self.sco_stats.sent(SCO_PAYLOAD)
                sent += 1
            if not speaking and position > delay and speech_end > delay:
                speaking = True
                event(f"mic-speech-start late-packets={self.mic_late}")
            if self.fold_at_mic is not None and position >= delay + self.fold_at_mic * per_second:
                self.fold_at_mic = None
                event(f"mic-at-fold-point bytes={position}: folding")
                asyncio.get_running_loop().create_task(self.fold())
            if position >= speech_end > 0 and not self.mic_done:
                self.mic_done = True
                event(f"mic-done bytes={speech_end} late-packets={self.mic_late}")
            await asyncio.sleep(0.03)

    def set_mic(self, path: str, delay: float = 0.0) -> str:
        """The mic says the WAV after `delay` seconds of silence, counted from the next SCO link
        (or from now, if one is up)."""
        with wave.open(path, "rb") as source:
            rate = source.getframerate()
            if rate not in (SCO_SAMPLE_RATE, MSBC_RATE) or source.getnchannels() != 1 or source.getsampwidth() != 2:
                return "error the mic WAV must be mono 16-bit at 8000 Hz (CVSD) or 16000 Hz (mSBC) (convert it with sox)"
            speech = source.readframes(source.getnframes())
        self.mic_rate = rate
        self.mic_delay_bytes = int(delay * rate) * 2
        self.mic_samples = bytes(self.mic_delay_bytes) + speech
        if self.sco_link and self.mic_task:
            self.mic_task.cancel()
            self.mic_task = asyncio.get_running_loop().create_task(self.run_mic(self.sco_link))
        return f"ok {len(speech) // 2} samples after {delay:.1f} s"

    def set_speaker(self, path: str) -> str:
        self.speaker = wave.open(path, "wb")
        self.speaker.setnchannels(1)
        self.speaker.setsampwidth(2)
        self.speaker.setframerate(SCO_SAMPLE_RATE)
        self.speaker_samples = 0
        return "ok recording"

    def stop_speaker(self) -> str:
        if not self.speaker:
            return "error the speaker is not recording"
        self.speaker.close()
        self.speaker = None
        return f"ok {self.speaker_samples} samples"

    # -- A2DP -------------------------------------------------------------------------------

    def on_avdtp_connection(self, protocol: avdtp.Protocol) -> None:
        event("a2dp-signalling")
        capabilities = avdtp.MediaCodecCapabilities(
            media_type=avdtp.AVDTP_AUDIO_MEDIA_TYPE,
            media_codec_type=a2dp.A2DP_SBC_CODEC_TYPE,
            media_codec_information=a2dp.SbcMediaCodecInformation(
                sampling_frequency=a2dp.SbcMediaCodecInformation.SamplingFrequency.SF_48000
                | a2dp.SbcMediaCodecInformation.SamplingFrequency.SF_44100,
                channel_mode=a2dp.SbcMediaCodecInformation.ChannelMode.JOINT_STEREO
                | a2dp.SbcMediaCodecInformation.ChannelMode.STEREO
                | a2dp.SbcMediaCodecInformation.ChannelMode.MONO,
                block_length=a2dp.SbcMediaCodecInformation.BlockLength.BL_16,
                subbands=a2dp.SbcMediaCodecInformation.Subbands.S_8,
                allocation_method=a2dp.SbcMediaCodecInformation.AllocationMethod.LOUDNESS,
                minimum_bitpool_value=2,
                maximum_bitpool_value=53,
            ),
        )
        sink = protocol.add_sink(capabilities)
        sink.on("rtp_packet", self.on_rtp_packet)
        sink.on("open", lambda: (self.a2dp_up.set(), event("a2dp-open")))
        sink.on("start", lambda: event("a2dp-start"))
        sink.on("suspend", lambda: event("a2dp-suspend"))
        sink.on("close", lambda: (self.a2dp_up.clear(), event("a2dp-close")))

    def on_rtp_packet(self, packet) -> None:
        if not self.a2dp_path:
            return
        if self.decoder is None:
            self.decoder = SbcDecoder()
        # The payload: one byte of header (frame count), then SBC frames.
        pcm, frames = self.decoder.decode(bytes(packet.payload[1:]))
        if not pcm:
            # Said, so that the next packet's sequence number does not count this one as lost.
            event(f"a2dp-undecodable sequence={packet.sequence_number} bytes={len(packet.payload)}")
            return
        channels = self.decoder.channels()
        if self.a2dp_file is None:
            self.a2dp_file = wave.open(self.a2dp_path, "wb")
            self.a2dp_file.setnchannels(channels)
            self.a2dp_file.setsampwidth(2)
            self.a2dp_file.setframerate(self.decoder.rate())
            event(f"a2dp-first-frame rate={self.decoder.rate()} bitpool={self.decoder.state.bitpool}")
        samples = len(pcm) // (2 * channels)
        if self.a2dp_next is not None:
            sequence, timestamp = self.a2dp_next
            lost = (packet.sequence_number - sequence) & 0xFFFF
            gap = (packet.timestamp - timestamp) & 0xFFFFFFFF
            if lost and lost < 0x8000:
                # Packets skipped: silence for as long as the timestamps say they held (or as
                # long as this one, each, when the timestamps say nothing sensible).
                silence = gap if 0 < gap <= 10 * self.decoder.rate() else lost * samples
                event(f"a2dp-lost packets={lost} at-sample={self.a2dp_samples} silence={silence}")
                self.a2dp_file.writeframes(bytes(2 * channels * silence))
                self.a2dp_lost += lost
                self.a2dp_gap += silence
                self.a2dp_samples += silence
            elif gap:
                # No packet skipped, but the sender's clock jumped: said, not filled.
                self.a2dp_jumps += 1
                if self.a2dp_jumps <= 20:
                    event(f"a2dp-timestamp-jump at-sample={self.a2dp_samples} by={gap - (1 << 32) if gap >= 1 << 31 else gap}")
        self.a2dp_next = ((packet.sequence_number + 1) & 0xFFFF, (packet.timestamp + samples) & 0xFFFFFFFF)
        self.a2dp_file.writeframes(pcm)
        self.a2dp_frames += frames
        self.a2dp_samples += samples

    def set_a2dp(self, path: str) -> str:
        self.a2dp_path, self.a2dp_file, self.a2dp_frames, self.a2dp_samples = path, None, 0, 0
        self.a2dp_lost, self.a2dp_gap, self.a2dp_jumps, self.a2dp_next = 0, 0, 0, None
        self.decoder = None
        return "ok recording"

    def stop_a2dp(self) -> str:
        if self.a2dp_file:
            self.a2dp_file.close()
        rate = self.decoder.rate() if self.decoder else 0
        self.a2dp_path, self.a2dp_file = None, None
        return (f"ok frames={self.a2dp_frames} samples={self.a2dp_samples} rate={rate}"
                f" lost-packets={self.a2dp_lost} silence-samples={self.a2dp_gap}"
                f" timestamp-jumps={self.a2dp_jumps}")

    # -- AVRCP: the touch on the temple --------------------------------------------------------

    async def touch(self, key: str, hold: float = 0.0) -> str:
        operation = {"play": avc.PassThroughFrame.OperationId.PLAY,
                     "pause": avc.PassThroughFrame.OperationId.PAUSE}.get(key)
        if operation is None:
            return f"error unknown key {key} (play, pause)"
        if self.connection is None:
            return "error not connected"
        if self.avrcp.avctp_protocol is None:
            event("avrcp-connecting")
            await asyncio.wait_for(self.avrcp.connect(self.connection), AT_TIMEOUT)
        answers = []

        async def send(pressed: bool) -> None:
            response = await asyncio.wait_for(self.avrcp.send_key_event(operation, pressed), AT_TIMEOUT)
            answers.append(getattr(response.response, "name", str(response.response)))

        loop = asyncio.get_running_loop()
        await send(True)
        released_at = loop.time() + hold
        while (left := released_at - loop.time()) > 0:
            await asyncio.sleep(min(1.0, left))
            if released_at - loop.time() > 0:
                await send(True)
        await send(False)
        held = f" held={hold:.1f}" if hold > 0 else ""
        event(f"avrcp-key {key} {'/'.join(answers)}{held}")
        return "ok " + "/".join(answers) + held

    # -- link loss --------------------------------------------------------------------------

    async def fold(self) -> str:
        """Both controllers lose the link at once, as when the glasses fold and power down; the
        glasses stop answering pages (and inquiries) until `unfold`."""
        glasses = self.glasses_controller
        host = self.host_controller
        if host.public_address not in glasses.classic_connections:
            return "error no link to drop"
        await self.device.set_discoverable(False)
        await self.device.set_connectable(False)
        timeout = hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR
        for side, other in ((glasses, host), (host, glasses)):
            if other.public_address in side.sco_links:
                side.on_classic_sco_disconnected(other.public_address, timeout)
            side.on_classic_disconnected(other.public_address, timeout)
        return "ok folded"

    def on_disconnection(self, reason) -> None:
        event(f"disconnected reason={reason}")
        self.slc.clear()
        self.sco_up.clear()
        self.sco_down.set()
        self.a2dp_up.clear()
        self.hf = None
        self.connection = None
        self.gone.set()

    def on_connection(self, connection) -> None:
        if connection.transport != PhysicalTransport.BR_EDR:
            return
        event(f"connected {connection.peer_address}")
        self.connection = connection
        self.gone.clear()
        connection.on("disconnection", self.on_disconnection)

    def status(self) -> str:
        return "ok " + json.dumps({
            "address": str(self.device.public_address),
            "connected": bool(self.glasses_controller.classic_connections),
            "slc": self.slc.is_set(), "sco": self.sco_up.is_set(), "a2dp": self.a2dp_up.is_set(),
            "battery_sent": self.battery_sent, "mic_late_packets": self.mic_late,
            "sco_stats": self.sco_stats.describe(),
        })

    # -- the control socket -----------------------------------------------------------------

    async def command(self, line: str) -> str:
        words = line.split()
        if not words:
            return "error empty command"
        name, arguments = words[0], words[1:]
        if name == "status":
            return self.status()
        if name == "wait":
            if not arguments:
                return "error wait slc|sco|a2dp|gone [seconds]"
            what = {"slc": self.slc, "sco": self.sco_up, "sco-down": self.sco_down, "a2dp": self.a2dp_up,
                    "gone": self.gone}.get(arguments[0])
            if what is None:
                return f"error unknown state {arguments[0]} (slc, sco, sco-down, a2dp, gone)"
            try:
                await asyncio.wait_for(what.wait(), float(arguments[1]) if len(arguments) > 1 else 60)
                return f"ok {arguments[0]}"
            except asyncio.TimeoutError:
                return f"error no {arguments[0]} in time"
        if name == "battery" and arguments:
            self.battery_sent = int(arguments[0])
            return await self.at(f"AT+BIEV=2,{int(arguments[0])}")
        if name == "apple-battery" and arguments:
            level = max(0, min(9, (int(arguments[0]) + 5) // 10 - 1))
            await self.at("AT+XAPL=ABCD-1234-0100,2")
            return await self.at(f"AT+IPHONEACCEV=1,1,{level}")
        if name == "bvra":
            return await self.at("AT+BVRA=1")
        if name == "codecs" and arguments:
            names = {"cvsd": hfp.AudioCodec.CVSD, "msbc": hfp.AudioCodec.MSBC}
            if any(word not in names for word in arguments[0].split(",")):
                return "error codecs takes cvsd or cvsd,msbc"
            self.codecs = [names[word] for word in arguments[0].split(",")]
            return "ok at the next service-level connection: " + ", ".join(codec.name for codec in self.codecs)
        if name == "touch":
            return await self.touch(arguments[0] if arguments else "play", float(arguments[1]) if len(arguments) > 1 else 0.0)
        if name == "mic" and arguments:
            return self.set_mic(arguments[0], float(arguments[1]) if len(arguments) > 1 else 0.0)
        if name == "speaker" and arguments:
            return self.set_speaker(arguments[0])
        if name == "speaker-stop":
            return self.stop_speaker()
        if name == "a2dp" and arguments:
            return self.set_a2dp(arguments[0])
        if name == "a2dp-stop":
            return self.stop_a2dp()
        if name == "fold":
            return await self.fold()
        if name == "fold-at-mic" and arguments:
            self.fold_at_mic = None if arguments[0] == "off" else float(arguments[0])
            return "ok disarmed" if self.fold_at_mic is None else f"ok armed at {self.fold_at_mic:.1f} s"
        if name == "fold-on-sound":
            self.fold_on_sound = not arguments or arguments[0] != "off"
            return "ok armed" if self.fold_on_sound else "ok disarmed"
        if name == "unfold":
            await self.device.set_connectable(True)
            await self.device.set_discoverable(True)
            return "ok unfolded"
        if name == "phone" and arguments and arguments[0] in "123456789" and len(arguments[0]) == 1:
            if arguments[0] not in self.phones:
                self.phones[arguments[0]] = await Phone.make(
                    f"phone{arguments[0]}", f"D0:D1:D2:D3:D4:0{arguments[0]}", self.glasses_controller.link)
            return await self.phones[arguments[0]].command(arguments[1:])
        if name == "quit":
            asyncio.get_running_loop().call_soon(sys.exit, 0)
            return "ok bye"
        return f"error unknown command {line!r} (see the peer's docstring)"

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while line := await reader.readline():
            try:
                answer = await self.command(line.decode().strip())
            except Exception as error:
                answer = f"error {type(error).__name__}: {error}"
            except asyncio.CancelledError:
                # Bumble cancels an ATT request whose link went away (a phone's GATT discovery,
                # companion run 2 of 2026-11-27): an answer, or peerctl waits for ever and the
                # case with it. Only this task's own cancellation ends the connection.
                if asyncio.current_task().cancelling():
                    raise
                answer = "error cancelled: the link went away during the command"
            writer.write((answer + "\n").encode())
            await writer.drain()
        writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vhci", default="vhci", help="Bumble transport the guest's hci0 is on")
    parser.add_argument("--control", required=True, help="path of the Unix control socket")
    parser.add_argument("--address", default="F0:F1:F2:F3:F4:F5")
    parser.add_argument("--name", default="Lab Glasses")
    parser.add_argument("--adapter-address", default="C0:C1:C2:C3:C4:C5")
    arguments = parser.parse_args()
    logging.basicConfig(level=os.environ.get("PEER_LOG", "INFO").upper(), stream=sys.stderr)

    link = LabLink()
    transport = await open_transport(arguments.vhci)
    adapter = LabController("hci0", host_source=transport.source, host_sink=transport.sink,
                            link=link, public_address=arguments.adapter_address)
    glasses_controller = LabController("glasses", link=link, public_address=arguments.address)

    config = DeviceConfiguration(name=arguments.name, address=hci.Address(arguments.address),
                                 class_of_device=0x240404, classic_enabled=True, le_enabled=False,
                                 classic_sc_enabled=False)
    host = Host(controller_source=glasses_controller, controller_sink=glasses_controller)
    device = Device(config=config, host=host)
    glasses = Glasses(device, glasses_controller, adapter)
    glasses_controller.sco_data_sink = glasses.on_sco_data

    rfcomm_server = rfcomm.Server(device)
    channel = rfcomm_server.listen(glasses.on_dlc)
    device.sdp_service_records = {
        0x00010001: hfp.make_hf_sdp_records(0x00010001, channel, glasses.configuration()),
        0x00010002: a2dp.make_audio_sink_service_sdp_records(0x00010002),
        0x00010003: avrcp.ControllerServiceSdpRecord(0x00010003).to_service_attributes(),
        0x00010004: avrcp.TargetServiceSdpRecord(0x00010004).to_service_attributes(),
    }
    glasses.avrcp.listen(device)
    listener = avdtp.Listener.for_device(device)
    listener.on("connection", glasses.on_avdtp_connection)
    device.on("sco_request", glasses.on_sco_request)
    device.on("sco_connection", glasses.on_sco_connection)
    device.on("connection", glasses.on_connection)

    await device.power_on()
    await device.set_discoverable(True)
    await device.set_connectable(True)
    glasses_controller.class_of_device = 0x240404

    if os.path.exists(arguments.control):
        os.unlink(arguments.control)
    server = await asyncio.start_unix_server(glasses.serve, path=arguments.control)
    event(f"ready glasses={arguments.address} adapter={arguments.adapter_address}")
    async with server:
        await transport.source.wait_for_termination() if hasattr(transport.source, "wait_for_termination") else await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
