# What `tafel update` says after the device's restart (host_tools/update_client.py): the new
# version answering, a device that stays silent (a version on trial that may be failing), and
# the old version answering again (the new one was rolled back).
from tafel_host import update_client


def test_the_new_version_answering_is_success(capsys):
    assert update_client._after_restart("0.9.0", "0.9.0", "0.8.0") == update_client.OK
    assert "the device restarted and runs 0.9.0" in capsys.readouterr().out


def test_a_silent_device_is_explained_not_reported_as_running_the_new_version(capsys):
    assert update_client._after_restart(None, "0.9.0", "0.8.0") == update_client.OK
    err = capsys.readouterr().err
    assert "has not answered since its restart" in err
    assert "back to 0.8.0 by itself after 3 boots" in err
    assert "tafel info" in err


def test_the_old_version_answering_means_a_rollback_and_fails(capsys):
    assert update_client._after_restart("0.8.0", "0.9.0", "0.8.0") == update_client.REFUSED
    err = capsys.readouterr().err
    assert "runs 0.8.0 again" in err and "rolled back" in err


def test_the_trial_count_told_is_the_boot_selectors():
    source = (update_client.Path(__file__).resolve().parents[2] / "firmware" / "bootsel.py").read_text()
    assert "TRIES = %d " % update_client.TRIAL_BOOTS in source
