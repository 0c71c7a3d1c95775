# Update bundles built, checked, sent over USB and served over Wi-Fi; signing keys; the first install (`tafel flash`).
