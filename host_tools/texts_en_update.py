# placeholder
TEXTS = {
}
