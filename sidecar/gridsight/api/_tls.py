"""The local HTTPS certificate: a per-install CA that can sign only localhost, and its leaf.

Office loads add-ins only over HTTPS, so the sidecar needs a certificate the user's system trusts.
We make our own CA once (10 years, EC P-256) and trust it once (``gridsight cert install``); the
localhost certificate it signs is short-lived (397 days, under Apple's limit) and renewed silently.
The CA carries a critical name constraint -- localhost, 127.0.0.1 and ::1 only -- so even a stolen CA
key could not vouch for any real website. Private keys are written 0600.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import platform
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsight.api._home import data_dir, private_dir, write_private
from gridsight.errors import CertificateError

CA_DAYS = 3650
LEAF_DAYS = 397
#: A leaf this close to expiry is replaced at start-up.
RENEW_DAYS = 30
HOSTS = ("localhost",)
IPS = ("127.0.0.1", "::1")


@dataclass(frozen=True)
class CertPaths:
    folder: Path

    @property
    def ca_cert(self) -> Path:
        return self.folder / "gridsight-ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "gridsight-ca.key"

    @property
    def cert(self) -> Path:
        return self.folder / "localhost.pem"

    @property
    def key(self) -> Path:
        return self.folder / "localhost.key"


def cert_paths(home: Path | None = None) -> CertPaths:
    return CertPaths((home or data_dir()) / "tls")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _new_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def _key_pem(key: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _cert_pem(cert: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return cert.public_bytes(serialization.Encoding.PEM)


def _make_ca() -> tuple[Any, Any]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    key = _new_key()
    host = socket.gethostname()[:40] or "this computer"
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "GridSight (local only)"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"GridSight Local CA ({host})"),
        ]
    )
    now = _now()
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.NameConstraints(
                permitted_subtrees=[
                    x509.DNSName("localhost"),
                    x509.IPAddress(ipaddress.ip_network("127.0.0.1/32")),
                    x509.IPAddress(ipaddress.ip_network("::1/128")),
                ],
                excluded_subtrees=None,
            ),
            critical=True,
        )
        .add_extension(ski, critical=False)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def _make_leaf(ca_key: Any, ca_cert: Any) -> tuple[Any, Any]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = _new_key()
    now = _now()
    san = [x509.DNSName(h) for h in HOSTS] + [x509.IPAddress(ipaddress.ip_address(i)) for i in IPS]
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(min(now + dt.timedelta(days=LEAF_DAYS), ca_cert.not_valid_after_utc))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(san), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    return key, cert


def _load_cert(path: Path) -> Any:
    from cryptography import x509

    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise CertificateError(f"cannot read certificate {path}: {exc}") from None


def _load_key(path: Path) -> Any:
    from cryptography.hazmat.primitives import serialization

    try:
        return serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise CertificateError(f"cannot read private key {path}: {exc}") from None


def ensure_certificates(home: Path | None = None, *, now: dt.datetime | None = None) -> CertPaths:
    """Create the CA and the localhost certificate on first run; renew the leaf when it nears expiry.

    The CA is kept as long as it is valid (replacing it would undo the user's trust step).
    """
    paths = cert_paths(home)
    private_dir(paths.folder)
    when = now or _now()
    try:
        if paths.ca_cert.exists() and paths.ca_key.exists():
            ca_cert, ca_key = _load_cert(paths.ca_cert), _load_key(paths.ca_key)
            if ca_cert.not_valid_after_utc - when < dt.timedelta(days=RENEW_DAYS):
                ca_key, ca_cert = _make_ca()
                _write_ca(paths, ca_key, ca_cert)
        else:
            ca_key, ca_cert = _make_ca()
            _write_ca(paths, ca_key, ca_cert)
        if not _leaf_ok(paths, ca_cert, when):
            key, cert = _make_leaf(ca_key, ca_cert)
            write_private(paths.key, _key_pem(key))
            paths.cert.write_bytes(_cert_pem(cert) + _cert_pem(ca_cert))
    except OSError as exc:
        raise CertificateError(
            f"cannot write certificates in {paths.folder}: {exc.strerror or exc}"
        ) from None
    return paths


def _write_ca(paths: CertPaths, key: Any, cert: Any) -> None:
    write_private(paths.ca_key, _key_pem(key))
    paths.ca_cert.write_bytes(_cert_pem(cert))
    paths.cert.unlink(missing_ok=True)  # a new CA needs a new leaf


def _leaf_ok(paths: CertPaths, ca_cert: Any, when: dt.datetime) -> bool:
    if not (paths.cert.exists() and paths.key.exists()):
        return False
    try:
        leaf = _load_cert(paths.cert)
    except CertificateError:
        return False
    return leaf.issuer == ca_cert.subject and leaf.not_valid_after_utc - when > dt.timedelta(days=RENEW_DAYS)


def server_context(paths: CertPaths) -> ssl.SSLContext:
    """TLS 1.2+ server context holding the localhost certificate (with the CA in its chain)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(str(paths.cert), str(paths.key))
    except (OSError, ssl.SSLError) as exc:
        raise CertificateError(f"cannot load the localhost certificate from {paths.folder}: {exc}") from None
    return ctx


def client_context(paths: CertPaths) -> ssl.SSLContext:
    """A client context that trusts only our CA (tests, the benchmark, scripts)."""
    return ssl.create_default_context(cafile=str(paths.ca_cert))


def status(home: Path | None = None) -> dict[str, Any]:
    """What `gridsight cert status` reports: files, validity, fingerprints, key file modes."""
    paths = cert_paths(home)
    out: dict[str, Any] = {
        "folder": str(paths.folder),
        "exists": paths.ca_cert.exists() and paths.cert.exists(),
    }
    if not out["exists"]:
        return out
    ca, leaf = _load_cert(paths.ca_cert), _load_cert(paths.cert)
    from cryptography.hazmat.primitives import hashes

    out["ca"] = {
        "file": str(paths.ca_cert),
        "subject": ca.subject.rfc4514_string(),
        "not_after": ca.not_valid_after_utc.isoformat(),
        "sha256": ca.fingerprint(hashes.SHA256()).hex(":").upper(),
    }
    out["certificate"] = {
        "file": str(paths.cert),
        "subject": leaf.subject.rfc4514_string(),
        "not_after": leaf.not_valid_after_utc.isoformat(),
        "days_left": (leaf.not_valid_after_utc - _now()).days,
        "signed_by_ca": leaf.issuer == ca.subject,
    }
    out["key_modes"] = {
        p.name: oct(p.stat().st_mode & 0o777) for p in (paths.ca_key, paths.key) if p.exists()
    }
    out["trusted"] = is_trusted(paths)
    return out


def ca_sha1(paths: CertPaths) -> str:
    der = ssl.PEM_cert_to_DER_cert(paths.ca_cert.read_text(encoding="ascii"))
    return hashlib.sha1(der, usedforsecurity=False).hexdigest().upper()


def is_trusted(paths: CertPaths) -> bool | None:
    """Whether the system trust store already holds our CA (None when we cannot tell)."""
    system = platform.system()
    if system == "Linux":
        for folder in (Path("/usr/local/share/ca-certificates"), Path("/etc/pki/ca-trust/source/anchors")):
            target = folder / "gridsight-local-ca.crt"
            if target.exists():
                return target.read_bytes().strip() == paths.ca_cert.read_bytes().strip()
        return False
    return None


def trust_commands(paths: CertPaths) -> list[list[str]]:
    """The OS command(s) that add our CA to the current user's (or system's) trust store."""
    ca = str(paths.ca_cert)
    system = platform.system()
    if system == "Windows":
        return [["certutil", "-user", "-addstore", "Root", ca]]
    if system == "Darwin":
        keychain = str(Path.home() / "Library" / "Keychains" / "login.keychain-db")
        return [["security", "add-trusted-cert", "-r", "trustRoot", "-k", keychain, ca]]
    if Path("/etc/pki/ca-trust/source/anchors").is_dir():
        return [
            ["sudo", "cp", ca, "/etc/pki/ca-trust/source/anchors/gridsight-local-ca.crt"],
            ["sudo", "update-ca-trust"],
        ]
    return [
        ["sudo", "cp", ca, "/usr/local/share/ca-certificates/gridsight-local-ca.crt"],
        ["sudo", "update-ca-certificates"],
    ]
