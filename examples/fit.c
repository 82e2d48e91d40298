/*
 * fit.c - scalefit's quick start from C: fit the generic data-parallel
 * model to 224 ResNet-50 training runs on 1-4 GPUs, print its constants,
 * then predict a new run on 16 GPUs with its 95% interval.
 *
 *   cc fit.c $(pkg-config --cflags --libs scalefit) -o fit && ./fit
 */
#include <scalefit.h>
#include <stdio.h>

int
main(void)
{
	scalefit_model *model = NULL;
	scalefit_settings *settings = NULL;
	scalefit_fit *fit = NULL;
	scalefit_report *at16 = NULL;
	scalefit_error err;
	int status = 1;

	/* @ddp-generic: a formula of the installed library, with its data. */
	if (scalefit_model_open("@ddp-generic", &model, &err) != SCALEFIT_OK ||
	    scalefit_settings_new(&settings, &err) != SCALEFIT_OK ||
	    scalefit_settings_set(settings, "seed", "1", &err) != SCALEFIT_OK ||
	    scalefit_run_fit(model, NULL, settings, &fit, &err) != SCALEFIT_OK)
		goto done;
	for (size_t i = 0; i < scalefit_fit_parameter_count(fit); i++)
		printf("%-4s %12.6g +- %.3g\n",
		       scalefit_fit_parameter_name(fit, i),
		       scalefit_fit_value(fit, i), scalefit_fit_stderr(fit, i));
	printf("MAPE %.3g%%\n", scalefit_fit_metric(fit, "mape"));

	/* The same settings handle, now for predict: one point. */
	scalefit_settings_unset(settings, "seed");
	if (scalefit_settings_set(settings, "at", "p=16,b=16,n=388288", &err) !=
	        SCALEFIT_OK ||
	    scalefit_run_predict((const scalefit_fit *const *)&fit, 1, settings,
	                         &at16, &err) != SCALEFIT_OK)
		goto done;
	printf("16 GPUs: %.1f s, a new run within [%.1f, %.1f]%s\n",
	       scalefit_report_point(at16, 0, "time"),
	       scalefit_report_point(at16, 0, "lower95"),
	       scalefit_report_point(at16, 0, "upper95"),
	       scalefit_report_point(at16, 0, "extrapolated")
	           ? " (extrapolated)"
	           : "");
	status = 0;
done:
	if (status != 0)
		fprintf(stderr, "fit: %s\n", err.text);
	scalefit_report_free(at16);
	scalefit_fit_free(fit);
	scalefit_settings_free(settings);
	scalefit_model_free(model);
	return status;
}
