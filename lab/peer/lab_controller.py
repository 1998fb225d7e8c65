"""A Bumble virtual controller that Linux's BR/EDR stack accepts.

Stock Bumble's `Controller` is LE-first: it says BR/EDR is not supported, has no inquiry, no
Set Connection Encryption, no SCO buffers and no SCO data path, and gives Secure Connections
link keys (type 0x08) that make the kernel demand AES encryption (profile connects then fail
with "Permission denied"). This subclass fills exactly those gaps; everything else is Bumble's.

Both ends of the lab's link are `LabController`s: one is `hci0` in the guest kernel (through
/dev/vhci), the other carries the Bumble host that plays the glasses.
"""

from __future__ import annotations

import asyncio
import logging
import os

from bumble import hci, lmp
from bumble.controller import Controller
from bumble.core import PhysicalTransport
from bumble.link import LocalLink

logger = logging.getLogger(__name__)

# CVSD at 8 kHz, 16-bit linear PCM input, 2's complement (Core spec, Vol 4, Part E, 6.12).
VOICE_SETTING_CVSD_16BIT = 0x0060
# SCO buffers we advertise, 16 of them. The HCI allows up to 255 bytes a SCO packet; USB dongles
# report 48-64 (their isochronous transfers), UART controllers more. The sound servers read and
# write SCO one packet per wake-up: under TCG 48-byte packets (333 wake-ups a second, reading and
# writing) were more than they could keep up with. scripts/bt-lab sets the size per sound server
# (BT_LAB_SCO_BYTES): 240 bytes (15 ms of 8 kHz CVSD) for PipeWire, 144 (9 ms) for PulseAudio 16,
# which reads 144 bytes of a packet and drops the rest (docs/bluez.md).
SCO_PACKET_LENGTH = min(255, int(os.environ.get("BT_LAB_SCO_BYTES", "240")))
SCO_PACKET_COUNT = 16
GENERAL_INQUIRY_LAP = bytes([0x33, 0x8B, 0x9E])
# How long a page to a controller whose page scan is off goes unanswered before Page Timeout
# (the spec's default page timeout is 5.12 s; shorter here, the answer is the same).
PAGE_TIMEOUT_SECONDS = 2.0


class LabController(Controller):
    lmp_features = (
        hci.LmpFeatureMask.LMP_3_SLOT_PACKETS
        | hci.LmpFeatureMask.LMP_5_SLOT_PACKETS
        | hci.LmpFeatureMask.ENCRYPTION
        | hci.LmpFeatureMask.ROLE_SWITCH
        | hci.LmpFeatureMask.SNIFF_MODE
        | hci.LmpFeatureMask.SCO_LINK
        | hci.LmpFeatureMask.HV3_PACKETS
        | hci.LmpFeatureMask.CVSD_SYNCHRONOUS_DATA
        | hci.LmpFeatureMask.TRANSPARENT_SYNCHRONOUS_DATA
        | hci.LmpFeatureMask.EXTENDED_SCO_LINK_EV3_PACKETS
        | hci.LmpFeatureMask.ERRONEOUS_DATA_REPORTING
        | hci.LmpFeatureMask.EXTENDED_INQUIRY_RESPONSE
        | hci.LmpFeatureMask.SECURE_SIMPLE_PAIRING_CONTROLLER_SUPPORT
        | hci.LmpFeatureMask.RSSI_WITH_INQUIRY_RESULTS
        | hci.LmpFeatureMask.LE_SUPPORTED_CONTROLLER
        | hci.LmpFeatureMask.EXTENDED_FEATURES
    )
    acl_data_packet_length = 1021
    total_num_acl_data_packets = 16

    supported_commands = Controller.supported_commands | {
        hci.HCI_INQUIRY_COMMAND,
        hci.HCI_INQUIRY_CANCEL_COMMAND,
        hci.HCI_CREATE_CONNECTION_COMMAND,
        hci.HCI_ACCEPT_CONNECTION_REQUEST_COMMAND,
        hci.HCI_REJECT_CONNECTION_REQUEST_COMMAND,
        hci.HCI_LINK_KEY_REQUEST_REPLY_COMMAND,
        hci.HCI_LINK_KEY_REQUEST_NEGATIVE_REPLY_COMMAND,
        hci.HCI_AUTHENTICATION_REQUESTED_COMMAND,
        hci.HCI_SET_CONNECTION_ENCRYPTION_COMMAND,
        hci.HCI_REMOTE_NAME_REQUEST_COMMAND,
        hci.HCI_READ_REMOTE_SUPPORTED_FEATURES_COMMAND,
        hci.HCI_READ_REMOTE_EXTENDED_FEATURES_COMMAND,
        hci.HCI_IO_CAPABILITY_REQUEST_REPLY_COMMAND,
        hci.HCI_USER_CONFIRMATION_REQUEST_REPLY_COMMAND,
        hci.HCI_USER_CONFIRMATION_REQUEST_NEGATIVE_REPLY_COMMAND,
        hci.HCI_ENHANCED_SETUP_SYNCHRONOUS_CONNECTION_COMMAND,
        hci.HCI_ENHANCED_ACCEPT_SYNCHRONOUS_CONNECTION_REQUEST_COMMAND,
        hci.HCI_WRITE_LOCAL_NAME_COMMAND,
        hci.HCI_READ_LOCAL_NAME_COMMAND,
        hci.HCI_WRITE_SCAN_ENABLE_COMMAND,
        hci.HCI_WRITE_CLASS_OF_DEVICE_COMMAND,
        hci.HCI_READ_VOICE_SETTING_COMMAND,
        hci.HCI_WRITE_SIMPLE_PAIRING_MODE_COMMAND,
        hci.HCI_WRITE_EXTENDED_INQUIRY_RESPONSE_COMMAND,
        hci.HCI_WRITE_LE_HOST_SUPPORT_COMMAND,
        hci.HCI_READ_LOCAL_EXTENDED_FEATURES_COMMAND,
    }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.voice_setting = VOICE_SETTING_CVSD_16BIT
        self.inquiry_task: asyncio.Task | None = None

    # -- BR/EDR init commands the kernel sends and stock Bumble answers with "unknown" -------

    def on_hci_read_voice_setting_command(self, _command):
        return hci.HCI_Read_Voice_Setting_ReturnParameters(
            status=hci.HCI_ErrorCode.SUCCESS, voice_setting=self.voice_setting
        )

    def on_hci_write_voice_setting_command(self, command):
        self.voice_setting = command.voice_setting
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def on_hci_read_number_of_supported_iac_command(self, _command):
        return hci.HCI_Read_Number_Of_Supported_IAC_ReturnParameters(
            status=hci.HCI_ErrorCode.SUCCESS, num_support_iac=1
        )

    def on_hci_read_current_iac_lap_command(self, _command):
        return hci.HCI_Read_Current_IAC_LAP_ReturnParameters(
            status=hci.HCI_ErrorCode.SUCCESS, num_support_iac=1, iac_lap=GENERAL_INQUIRY_LAP
        )

    def _accept(self, _command):
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    on_hci_write_connection_accept_timeout_command = _accept
    on_hci_write_page_scan_activity_command = _accept
    on_hci_write_page_scan_type_command = _accept
    on_hci_write_inquiry_scan_activity_command = _accept
    on_hci_write_inquiry_scan_type_command = _accept
    on_hci_write_inquiry_mode_command = _accept
    on_hci_write_secure_connections_host_support_command = _accept
    on_hci_write_default_link_policy_settings_command = _accept
    on_hci_write_link_policy_settings_command = _accept
    on_hci_write_current_iac_lap_command = _accept
    on_hci_write_page_timeout_command = _accept
    on_hci_delete_stored_link_key_command = _accept
    on_hci_write_default_erroneous_data_reporting_command = _accept

    def on_hci_read_buffer_size_command(self, _command):
        return hci.HCI_Read_Buffer_Size_ReturnParameters(
            status=hci.HCI_ErrorCode.SUCCESS,
            hc_acl_data_packet_length=self.acl_data_packet_length,
            hc_synchronous_data_packet_length=SCO_PACKET_LENGTH,
            hc_total_num_acl_data_packets=self.total_num_acl_data_packets,
            hc_total_num_synchronous_data_packets=SCO_PACKET_COUNT,
        )

    # -- paging: a controller with page scan off is not there -------------------------------

    def on_classic_connection_request(self, peer_address, link_type: int) -> None:
        """Stock Bumble connects whatever the scan setting. A controller whose page scan is off
        (folded glasses: radio down) never answers the page: the pager gets Page Timeout.
        bluetoothd reconnects after a link loss by timeout (its policy's ReconnectAttempts),
        and would otherwise find folded glasses at once."""
        if link_type == hci.HCI_Connection_Complete_Event.LinkType.ACL and not (self.classic_scan_enable & 0x02):
            refusal = lmp.LmpNotAccepted(lmp.Opcode.LMP_HOST_CONNECTION_REQ, hci.HCI_ErrorCode.PAGE_TIMEOUT_ERROR)
            asyncio.get_running_loop().call_later(
                PAGE_TIMEOUT_SECONDS, lambda: self.link.send_lmp_packet(self, peer_address, refusal))
            return
        super().on_classic_connection_request(peer_address, link_type)

    # -- inquiry: every other controller on the link with inquiry scan on answers -------------

    def on_hci_inquiry_command(self, command) -> None:
        self._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
        self.inquiry_task = asyncio.get_running_loop().create_task(self._inquire())

    async def _inquire(self) -> None:
        await asyncio.sleep(0.2)
        for other in list(self.link.controllers):
            if other is self or not (other.classic_scan_enable & 0x01):
                continue
            self.send_hci_packet(
                hci.HCI_Inquiry_Result_Event(
                    bd_addr=[other.public_address],
                    page_scan_repetition_mode=[1],
                    reserved_0=[0],
                    reserved_1=[0],
                    class_of_device=[getattr(other, 'class_of_device', 0)],
                    clock_offset=[0],
                )
            )
        await asyncio.sleep(0.5)
        self.send_hci_packet(hci.HCI_Inquiry_Complete_Event(status=hci.HCI_ErrorCode.SUCCESS))

    def on_hci_inquiry_cancel_command(self, _command):
        if self.inquiry_task:
            self.inquiry_task.cancel()
            self.inquiry_task = None
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def on_hci_write_class_of_device_command(self, command):
        self.class_of_device = command.class_of_device
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    # -- encryption: both ends are told, at once --------------------------------------------

    def on_hci_set_connection_encryption_command(self, command) -> None:
        connection = self.find_classic_connection_by_handle(command.connection_handle)
        if connection is None:
            self._send_hci_command_status(
                hci.HCI_ErrorCode.UNKNOWN_CONNECTION_IDENTIFIER_ERROR, command.op_code
            )
            return
        self._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
        enabled = 1 if command.encryption_enable else 0
        self.send_hci_packet(
            hci.HCI_Encryption_Change_Event(
                status=hci.HCI_ErrorCode.SUCCESS,
                connection_handle=connection.handle,
                encryption_enabled=enabled,
            )
        )
        peer = self.link.find_classic_controller(connection.peer_address)
        if peer and (peer_connection := peer.classic_connections.get(self.public_address)):
            peer.send_hci_packet(
                hci.HCI_Encryption_Change_Event(
                    status=hci.HCI_ErrorCode.SUCCESS,
                    connection_handle=peer_connection.handle,
                    encryption_enabled=enabled,
                )
            )

    # -- authentication: the host's stored link key first, as real controllers do -------------
    #
    # Stock Bumble goes straight to Secure Simple Pairing (IO Capability Request) on every
    # Authentication Requested. A real controller first asks its host for a stored link key
    # (Link Key Request); the kernel answers with the key it bonded, and the link is
    # authenticated without pairing again. Without this, reconnecting after a fold re-paired
    # under "No Bonding", the glasses refused (Authentication Failure) and every profile
    # connect was refused. With no key the host answers negatively and pairing goes on as before.

    def on_hci_authentication_requested_command(self, command) -> None:
        connection = self.find_classic_connection_by_handle(command.connection_handle)
        if connection is None:
            super().on_hci_authentication_requested_command(command)
            return
        self._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
        self.send_hci_packet(hci.HCI_Link_Key_Request_Event(bd_addr=connection.peer_address))

    # -- link keys: P-192 unauthenticated (Just Works), which the kernel takes with E0 --------

    def send_hci_packet(self, packet) -> None:
        if (
            isinstance(packet, hci.HCI_Link_Key_Notification_Event)
            and packet.key_type
            == hci.LinkKeyType.AUTHENTICATED_COMBINATION_KEY_GENERATED_FROM_P_256
        ):
            packet = hci.HCI_Link_Key_Notification_Event(
                bd_addr=packet.bd_addr,
                link_key=packet.link_key,
                key_type=hci.LinkKeyType.UNAUTHENTICATED_COMBINATION_KEY_GENERATED_FROM_P_192,
            )
        super().send_hci_packet(packet)

    # -- SCO data: carried to the controller at the other end of the link, as raw bytes -------
    #
    # The audio path is the lab's hot path: 8 kHz CVSD in 48-byte packets is ~166 packets a
    # second each way. Through Bumble's object model every packet is parsed, formatted for a
    # debug log line (an f-string, built even with debug off) and re-serialised several times:
    # ~75 us a packet natively, milliseconds under TCG, which backed the peer up until HCI
    # commands (the SCO Disconnect) waited in the queue behind audio for tens of seconds and
    # bluetoothd's AVDTP Start timed out. So SCO data never becomes an object here: the header
    # is read from the bytes, the payload is handed on unchanged.

    # A controller whose host is our own glasses (not a kernel) may take SCO payloads directly.
    sco_data_sink = None  # callable(bytes) -> None

    def on_packet(self, packet: bytes) -> None:
        if packet and packet[0] == hci.HCI_SYNCHRONOUS_DATA_PACKET:
            if len(packet) >= 4:
                self._forward_sco(int.from_bytes(packet[1:3], "little") & 0x0FFF, bytes(packet[4:]))
            return
        super().on_packet(packet)

    def send_sco_from_host(self, handle: int, data: bytes) -> None:
        """What the glasses' mic says: as if their host had sent it over HCI."""
        self._forward_sco(handle, data)

    def _forward_sco(self, handle: int, data: bytes) -> None:
        link = self.find_classic_sco_link_by_handle(handle)
        if link is None:
            return
        peer = self.link.find_classic_controller(link.peer_address)
        if peer is None:
            return
        peer_link = peer.sco_links.get(self.public_address)
        if peer_link is None or peer_link.handle == 0:
            return
        peer.deliver_sco(peer_link.handle, data)

    def deliver_sco(self, handle: int, data: bytes) -> None:
        if self.sco_data_sink is not None:
            self.sco_data_sink(data)
        elif self.host is not None:
            # Packet status 0 (correctly received) in bits 12-13 of the handle field.
            self.host.on_packet(bytes((hci.HCI_SYNCHRONOUS_DATA_PACKET,)) + handle.to_bytes(2, "little")
                                + bytes((len(data),)) + data)


class LabLink(LocalLink):
    """Bumble's in-process link, with LE data sent from the address the connection was made
    with. Stock Bumble sends LE data from the sender's random address, whatever the connection:
    the kernel advertises with hci0's public address (and sets a random one it does not use), so
    the phone's controller took hci0's ATT answers for a stranger's ("!!! no connection for
    13:3E:…") and dropped them; its GATT discovery then timed out."""

    def send_acl_data(self, sender_controller, destination_address, transport, data: bytes):
        if transport == PhysicalTransport.LE:
            connection = sender_controller.le_connections.get(destination_address)
            destination = self.find_le_controller(destination_address)
            if connection is not None and destination is not None:
                source = connection.self_address
                asyncio.get_running_loop().call_soon(
                    lambda: destination.on_link_acl_data(source, transport, data))
                return
        super().send_acl_data(sender_controller, destination_address, transport, data)
