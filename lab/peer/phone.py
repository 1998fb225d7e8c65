"""The lab's phones: Bumble LE centrals playing the companion app, each on its own controller on
the glasses peer's link (the same radio as hci0 and the glasses).

A phone scans for the host's advertisement, connects over LE, pairs (SMP, Just Works: the phone
has no display and no keyboard for a passkey, as BlueZ's host has none either), finds the GATT
services, reads, writes and subscribes to characteristics by UUID. Commands (after "phone N"):

    scan UUID [s]          until an advertisement lists the service UUID and a name; answers
                           "ok address=A name=N uuids=U,U"
    connect ADDRESS        LE connection to the address the scan found; then GATT discovery
    pair                   SMP pairing (Just Works, bonding): the link is encrypted after it;
                           bonded before: encryption with the bond's key instead
    read UUID              "ok hex=H text=T" or "error ATT_ERROR_NAME"
    write UUID TEXT        a write request with the text's UTF-8; "ok written" or "error NAME"
    subscribe UUID         notifications of the characteristic are kept, and logged as events
    notified UUID          the values notified so far, as JSON text list
    disconnect
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time

from bumble import hci
from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData, ProtocolError
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.host import Host
from bumble.pairing import PairingConfig

SCAN_SECONDS = 60.0
ATT_SECONDS = 30.0


def event(text: str) -> None:
    print(f"event {time.monotonic():.3f} {text}", flush=True)


class PhoneController(Controller):
    """Stock Bumble's LE controller, with the scan response a radio carries. Bumble's link
    layer sends only the advertising data, and answers an active scan with that same data as
    the scan response; BlueZ puts the advertisement's local name in the scan response, so a
    phone would never see it. Here the scan response report carries the scan response data
    that the advertiser's host set (its legacy advertiser's or its advertising set's)."""

    def send_hci_packet(self, packet) -> None:
        if isinstance(packet, hci.HCI_LE_Extended_Advertising_Report_Event):
            reports = [self._with_scan_response(report, report.event_type
                                                & hci.HCI_LE_Extended_Advertising_Report_Event.EventType.SCAN_RESPONSE)
                       for report in packet.reports]
            packet = hci.HCI_LE_Extended_Advertising_Report_Event(reports)
        elif isinstance(packet, hci.HCI_LE_Advertising_Report_Event):
            reports = [self._with_scan_response(report, report.event_type
                                                == hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP)
                       for report in packet.reports]
            packet = hci.HCI_LE_Advertising_Report_Event(reports)
        super().send_hci_packet(packet)

    def _with_scan_response(self, report, is_scan_response):
        if not is_scan_response:
            return report
        data = self._scan_response_of(report.address)
        if data is None:
            return report
        return dataclasses.replace(report, data=bytes(data))

    def _scan_response_of(self, address):
        for controller in self.link.controllers:
            if controller is self:
                continue
            legacy = getattr(controller, "le_legacy_advertiser", None)
            if legacy is not None and legacy.enabled and legacy.address == address:
                return legacy.scan_response_data
            for advertising_set in getattr(controller, "advertising_sets", {}).values():
                if advertising_set.enabled and advertising_set.address == address:
                    return advertising_set.scan_response_data
        return None


class Phone:
    def __init__(self, name: str, device: Device):
        self.name = name
        self.device = device
        self.connection = None
        self.encrypting: asyncio.Future | None = None
        self.peer: Peer | None = None
        self.seen: dict[str, dict] = {}  # address -> {"name": str | None, "uuids": set[str]}
        self.notified: dict[str, list[str]] = {}
        device.on("advertisement", self.on_advertisement)
        # Its identity is the static random address it connects with (as a phone's identity
        # resolves its private addresses): with the public one, the host filed the bond under an
        # address the phone never connects from, and found no key at the reconnection.
        device.pairing_config_factory = lambda _connection: PairingConfig(
            sc=True, mitm=False, bonding=True, identity_address_type=PairingConfig.AddressType.RANDOM)

    @staticmethod
    async def make(name: str, address: str, link) -> "Phone":
        controller = PhoneController(name, link=link, public_address=address)
        host = Host(controller_source=controller, controller_sink=controller)
        config = DeviceConfiguration(name=name, address=hci.Address(address),
                                     classic_enabled=False, le_enabled=True)
        device = Device(config=config, host=host)
        await device.power_on()
        return Phone(name, device)

    def on_advertisement(self, advertisement) -> None:
        address = str(advertisement.address)
        entry = self.seen.setdefault(address, {"name": None, "uuids": set()})
        data = advertisement.data
        name = data.get(AdvertisingData.COMPLETE_LOCAL_NAME) or data.get(AdvertisingData.SHORTENED_LOCAL_NAME)
        if name:
            entry["name"] = name if isinstance(name, str) else bytes(name).decode(errors="replace")
        for kind in (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                     AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                     AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
                     AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS):
            for uuid in data.get(kind) or []:
                entry["uuids"].add(str(uuid).lower())

    async def scan(self, uuid: str, seconds: float) -> str:
        wanted = uuid.lower()
        self.seen.clear()
        await self.device.start_scanning(active=True, filter_duplicates=False)
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                for address, entry in self.seen.items():
                    if wanted in entry["uuids"] and entry["name"]:
                        event(f"{self.name} found {address} name={entry['name']!r}")
                        return f"ok address={address} name={entry['name']} uuids={','.join(sorted(entry['uuids']))}"
                await asyncio.sleep(0.2)
        finally:
            await self.device.stop_scanning()
        seen = "; ".join(f"{a} name={e['name']} uuids={','.join(sorted(e['uuids']))}" for a, e in self.seen.items())
        return f"error no advertisement with {wanted} and a name in {seconds:.0f} s (seen: {seen or 'nothing'})"

    async def connect(self, address: str) -> str:
        self.connection = await self.device.connect(hci.Address(address), timeout=SCAN_SECONDS)
        self.encrypting = None
        self.connection.on("disconnection", lambda reason: event(f"{self.name} disconnected reason={reason}"))
        event(f"{self.name} connected {address} handle={self.connection.handle}")
        # Bonded before: the link is encrypted with the bond's key at once, as a phone does.
        # bluetoothd asks a bonded central for security at its reconnection (an SMP Security
        # Request, which Bumble leaves to the application): unanswered, the kernel held the ATT
        # answers and dropped the link after 30 s ("Authentication Failure").
        self.connection.on("security_request", lambda _auth: asyncio.get_running_loop().create_task(self.answer_security()))
        if await self.bonded():
            await self.encrypt()
            event(f"{self.name} encrypted with its bond's key")
        self.peer = Peer(self.connection)
        await asyncio.wait_for(self.peer.discover_services(), ATT_SECONDS)
        for service in self.peer.services:
            await asyncio.wait_for(service.discover_characteristics(), ATT_SECONDS)
        count = sum(len(service.characteristics) for service in self.peer.services)
        return f"ok connected services={len(self.peer.services)} characteristics={count}"

    async def bonded(self) -> bool:
        keystore = self.device.keystore
        keys = await keystore.get(str(self.connection.peer_address)) if keystore else None
        return keys is not None and bool(keys.ltk or keys.ltk_central)

    async def answer_security(self) -> None:
        """A Security Request from the host: encrypted with the bond's key when bonded (a phone
        not bonded would ask its user; this one waits for its case's `pair`)."""
        event(f"{self.name} security-request")
        if self.connection is not None and await self.bonded():
            await self.encrypt()

    async def encrypt(self) -> None:
        """Once per link: a Security Request may come while the phone's own encryption runs."""
        if self.encrypting is None:
            self.encrypting = asyncio.ensure_future(self.connection.encrypt())
        await asyncio.wait_for(asyncio.shield(self.encrypting), ATT_SECONDS)

    async def pair(self) -> str:
        """Bonds, or encrypts with the bond's key when bonded before, as a phone does: BlueZ
        refuses a Just Works pairing again over an existing key (the kernel asks bluetoothd,
        whose JustWorksRepairing is "never": SMP Numeric Comparison Failed)."""
        if self.connection is None:
            return "error not connected"
        if self.connection.is_encrypted and await self.bonded():
            return "ok encrypted with its bond's key encrypted=True"
        if await self.bonded():
            await self.encrypt()
            event(f"{self.name} encrypted with its bond's key encrypted={self.connection.is_encrypted}")
            return f"ok encrypted with its bond's key encrypted={self.connection.is_encrypted}"
        await asyncio.wait_for(self.connection.pair(), ATT_SECONDS)
        event(f"{self.name} paired encrypted={self.connection.is_encrypted}")
        return f"ok paired encrypted={self.connection.is_encrypted}"

    def characteristic(self, uuid: str):
        if self.peer is None:
            raise LookupError("not connected")
        found = self.peer.get_characteristics_by_uuid(UUID(uuid))
        if not found:
            raise LookupError(f"no characteristic {uuid}")
        return found[0]

    async def read(self, uuid: str) -> str:
        try:
            value = bytes(await asyncio.wait_for(self.characteristic(uuid).read_value(), ATT_SECONDS))
        except ProtocolError as error:
            return f"error {error.error_name or error}"
        text = "".join(c if c.isprintable() else "." for c in value.decode(errors="replace"))
        return f"ok hex={value.hex()} text={text}"

    async def write(self, uuid: str, text: str) -> str:
        try:
            await asyncio.wait_for(self.characteristic(uuid).write_value(text.encode(), with_response=True), ATT_SECONDS)
        except ProtocolError as error:
            return f"error {error.error_name or error}"
        return "ok written"

    async def subscribe(self, uuid: str) -> str:
        values = self.notified.setdefault(uuid.lower(), [])

        def on_value(value) -> None:
            text = bytes(value).decode(errors="replace")
            values.append(text)
            event(f"{self.name} notified {uuid.lower()} {text!r}")

        await asyncio.wait_for(self.peer.subscribe(self.characteristic(uuid), on_value), ATT_SECONDS)
        return "ok subscribed"

    async def disconnect(self) -> str:
        if self.connection is None:
            return "error not connected"
        await self.connection.disconnect()
        self.connection, self.peer = None, None
        return "ok disconnected"

    async def command(self, words: list[str]) -> str:
        if not words:
            return "error phone N scan|connect|pair|read|write|subscribe|notified|disconnect"
        name, arguments = words[0], words[1:]
        try:
            if name == "scan" and arguments:
                return await self.scan(arguments[0], float(arguments[1]) if len(arguments) > 1 else SCAN_SECONDS)
            if name == "connect" and arguments:
                return await self.connect(arguments[0])
            if name == "pair":
                return await self.pair()
            if name == "read" and arguments:
                return await self.read(arguments[0])
            if name == "write" and len(arguments) >= 2:
                return await self.write(arguments[0], " ".join(arguments[1:]))
            if name == "subscribe" and arguments:
                return await self.subscribe(arguments[0])
            if name == "notified" and arguments:
                return "ok " + json.dumps(self.notified.get(arguments[0].lower(), []))
            if name == "disconnect":
                return await self.disconnect()
        except LookupError as error:
            return f"error {error}"
        return f"error unknown phone command {' '.join(words)!r}"
