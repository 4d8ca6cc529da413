"""Drop reconciliation: each table's shift in the auditors' two stories of its money."""
